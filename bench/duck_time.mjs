// bench/duck_time.mjs — run SQL statements in one in-memory DuckDB (the
// interop tools' pinned @duckdb/node-api) and print, per statement, the
// wall time inside DuckDB (no process start-up), then the last result.
//   node bench/duck_time.mjs "SQL1" "SQL2" ...
// Output lines: "time <seconds>" per statement, then "result <csv>".
import { createRequire } from 'node:module'
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const home = execFileSync(path.join(here, '../../shared/tools/interop/setup')).toString().trim()
const require = createRequire(path.join(home, 'package.json'))
const { DuckDBInstance } = require('@duckdb/node-api')

const db = await DuckDBInstance.create(':memory:', {
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
})
const con = await db.connect()
let last = []
for (const sql of process.argv.slice(2)) {
  const t0 = process.hrtime.bigint()
  const reader = await con.runAndReadAll(sql)
  last = reader.getRows()
  const s = Number(process.hrtime.bigint() - t0) / 1e9
  console.log(`time ${s.toFixed(3)}`)
}
for (const row of last) console.log('result ' + row.map(v => v === null ? '' : String(v)).join(','))
