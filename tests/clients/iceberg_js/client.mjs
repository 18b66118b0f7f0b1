// client.mjs BASE_URL USER PASSWORD — floe's Iceberg REST catalog driven by
// iceberg-js (npm, installed by setup.sh into $ICEBERG_JS_HOME), a client
// nobody here wrote; SQL through floe's HTTP query API (/v1/query) checks
// what the catalog did.  Prints "PASS name" / "FAIL name: why" lines.
import { createRequire } from "node:module";

const require = createRequire(process.env.ICEBERG_JS_HOME + "/");
const { IcebergRestCatalog, IcebergError } = require("iceberg-js");
const [base, user, password] = process.argv.slice(2);

let failures = 0;
const pass = (n) => console.log(`PASS ${n}`);
const fail = (n, why) => { failures++; console.log(`FAIL ${n}: ${why}`); };
const basic = "Basic " + Buffer.from(`${user}:${password}`).toString("base64");

async function sql(text, params) {
  const r = await fetch(`${base}/v1/query`, {
    method: "POST", headers: { authorization: basic, "content-type": "application/json" },
    body: JSON.stringify(params ? { sql: text, params } : { sql: text }),
  });
  const doc = await r.json();
  if (r.status !== 200) throw new Error(`${text}: ${r.status} ${JSON.stringify(doc)}`);
  return doc;
}

async function check(name, fn) {
  try { await fn(); } catch (e) { fail(name, e && e.stack ? e.stack.split("\n").slice(0, 3).join(" | ") : String(e)); }
}

// OAuth2 client credentials: the token the catalog client then uses
const tr = await fetch(`${base}/iceberg/v1/oauth/tokens`, {
  method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams({ grant_type: "client_credentials", client_id: user, client_secret: password }),
});
const tok = await tr.json();
if (tr.status === 200 && tok.token_type === "bearer" && /^[0-9a-f]{64}$/.test(tok.access_token)) pass("oauth_token");
else fail("oauth_token", `${tr.status} ${JSON.stringify(tok)}`);
const bad = await fetch(`${base}/iceberg/v1/oauth/tokens`, {
  method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams({ grant_type: "client_credentials", client_id: user, client_secret: "wrong" }),
});
const badDoc = await bad.json();
bad.status === 401 && badDoc.error === "invalid_client" ? pass("oauth_wrong_secret") : fail("oauth_wrong_secret", `${bad.status} ${JSON.stringify(badDoc)}`);

const catalog = new IcebergRestCatalog({ baseUrl: `${base}/iceberg`, auth: { type: "bearer", token: tok.access_token } });
const nobody = new IcebergRestCatalog({ baseUrl: `${base}/iceberg`, auth: { type: "bearer", token: "0".repeat(64) } });

await check("unauthorized", async () => {
  try { await nobody.listNamespaces(); fail("unauthorized", "a wrong token listed namespaces"); }
  catch (e) { e instanceof IcebergError && e.status === 401 ? pass("unauthorized") : fail("unauthorized", String(e)); }
});

await check("namespaces", async () => {
  await catalog.createNamespace({ namespace: ["js"] });
  const { namespaces } = await catalog.listNamespaces();
  const names = namespaces.map((n) => n.namespace ? n.namespace.join(".") : n.join("."));
  const meta = await catalog.loadNamespaceMetadata({ namespace: ["js"] });
  const exists = await catalog.namespaceExists({ namespace: ["js"] });
  const missing = await catalog.namespaceExists({ namespace: ["nope"] });
  let dup = "";
  try { await catalog.createNamespace({ namespace: ["js"] }); } catch (e) { dup = `${e.status} ${e.type || ""}`; }
  // the schema is visible to SQL
  const s = await sql("SELECT count(*) FROM information_schema.schemata WHERE schema_name = 'js'");
  if (names.includes("js") && exists && !missing && meta && s.rows[0][0] === 1 && dup.startsWith("409"))
    pass("namespaces");
  else fail("namespaces", JSON.stringify({ names, exists, missing, meta, s: s.rows, dup }));
});

await check("create_table", async () => {
  const r = await catalog.createTable({ namespace: ["js"] }, {
    name: "events",
    schema: { type: "struct", "schema-id": 0, fields: [
      { id: 1, name: "id", type: "long", required: true },
      { id: 2, name: "name", type: "string", required: false },
      { id: 3, name: "at", type: "timestamptz", required: false },
      { id: 4, name: "amount", type: "decimal(10,2)", required: false } ] },
    properties: { "owner-team": "js" },
  });
  const md = r.metadata ?? r;     // iceberg-js answers the TableMetadata
  // written through SQL, read back through SQL
  await sql("INSERT INTO js.events VALUES (1, 'a', '2024-01-02 03:04:05+00', 12.50), (2, NULL, NULL, NULL)");
  const q = await sql("SELECT id, name, at, amount FROM js.events ORDER BY id");
  const want = JSON.stringify([[1, "a", "2024-01-02 03:04:05+00", "12.50"], [2, null, null, null]]);
  if (md["table-uuid"] && md["format-version"] === 2 && md.properties["owner-team"] === "js" &&
      JSON.stringify(q.rows) === want) pass("create_table");
  else fail("create_table", JSON.stringify({ md, rows: q.rows }));
  const { identifiers } = await catalog.listTables({ namespace: ["js"] });
  identifiers.some((t) => t.name === "events") ? pass("list_tables") : fail("list_tables", JSON.stringify(identifiers));
});

let src;
await check("load_sql_table", async () => {
  await sql("CREATE TABLE public.src (k integer, v text)");
  await sql("INSERT INTO public.src VALUES (1, 'one'), (2, 'two'), (3, 'three')");
  // the INSERT was buffered (floe.insert_buffer_rows): an outside reader
  // sees its snapshot after the flush (docs/ingest.md)
  await sql("FLUSH INSERT BUFFER");
  src = await catalog.loadTable({ namespace: ["public"], name: "src" });
  const md = src.metadata ?? src;
  const schema = md.schemas.find((s) => s["schema-id"] === md["current-schema-id"]);
  const snap = md.snapshots.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
  const f = schema.fields.map((x) => `${x.name}:${x.type}`).join(",");
  if (f === "k:int,v:string" && snap && snap.summary.operation === "append" && snap["manifest-list"])
    pass("load_sql_table");
  else fail("load_sql_table", JSON.stringify({ f, snap }));
});

// A commit through iceberg-js: dst (made by SQL, empty) gets a snapshot that
// lists src's data (the way an outside writer commits files it wrote)
let dstSnap;
await check("commit_add_snapshot", async () => {
  await sql("CREATE TABLE js.dst (k integer, v text)");
  const dst = await catalog.loadTable({ namespace: ["js"], name: "dst" });
  const dmd = dst.metadata ?? dst;
  const smd = src.metadata ?? src;
  const ssnap = smd.snapshots.find((s) => s["snapshot-id"] === smd["current-snapshot-id"]);
  dstSnap = 424242;
  const r = await catalog.updateTable({ namespace: ["js"], name: "dst" }, {
    requirements: [{ type: "assert-table-uuid", uuid: dmd["table-uuid"] },
                   { type: "assert-ref-snapshot-id", ref: "main", "snapshot-id": null }],
    updates: [
      { action: "add-snapshot", snapshot: { "snapshot-id": dstSnap, "sequence-number": dmd["last-sequence-number"] + 1,
        "timestamp-ms": Date.now(), "manifest-list": ssnap["manifest-list"], "schema-id": dmd["current-schema-id"],
        summary: { operation: "append", "added-records": "3" } } },
      { action: "set-snapshot-ref", "ref-name": "main", type: "branch", "snapshot-id": dstSnap },
      { action: "set-properties", updates: { "committed-by": "iceberg-js" } } ],
  });
  const q = await sql("SELECT k, v FROM js.dst ORDER BY k");
  const want = JSON.stringify([[1, "one"], [2, "two"], [3, "three"]]);
  if (r["metadata-location"] && r.metadata["current-snapshot-id"] === dstSnap && JSON.stringify(q.rows) === want)
    pass("commit_add_snapshot");
  else fail("commit_add_snapshot", JSON.stringify({ loc: r["metadata-location"], rows: q.rows }));
  // SQL writes on top of the REST commit
  await sql("INSERT INTO js.dst VALUES (4, 'four')");
  await sql("FLUSH INSERT BUFFER");   // committed: dstSnap is no longer main's
  const c = await sql("SELECT count(*) FROM js.dst");
  c.rows[0][0] === 4 ? pass("sql_after_rest_commit") : fail("sql_after_rest_commit", JSON.stringify(c.rows));
});

// A stale client: its requirement names the snapshot SQL replaced
await check("commit_conflict", async () => {
  try {
    await catalog.updateTable({ namespace: ["js"], name: "dst" }, {
      requirements: [{ type: "assert-ref-snapshot-id", ref: "main", "snapshot-id": dstSnap }],
      updates: [{ action: "set-properties", updates: { stale: "yes" } }],
    });
    fail("commit_conflict", "a stale requirement was accepted");
  } catch (e) {
    const t = await catalog.loadTable({ namespace: ["js"], name: "dst" });
    const props = (t.metadata ?? t).properties;
    e instanceof IcebergError && e.status === 409 && !("stale" in props) ? pass("commit_conflict")
      : fail("commit_conflict", `${e} ${JSON.stringify(props)}`);
  }
});

await check("unsupported_update", async () => {
  try {
    await catalog.updateTable({ namespace: ["js"], name: "dst" }, {
      requirements: [], updates: [{ action: "remove-schemas", "schema-ids": [0] }] });
    fail("unsupported_update", "remove-schemas was accepted");
  } catch (e) {
    e.status === 406 ? pass("unsupported_update") : fail("unsupported_update", String(e));
  }
});

await check("rename_table", async () => {
  await catalog.renameTable({ source: { namespace: ["public"], name: "src" },
                              destination: { namespace: ["public"], name: "src2" } });
  const c = await sql("SELECT count(*) FROM public.src2");
  const gone = !(await catalog.tableExists({ namespace: ["public"], name: "src" }));
  c.rows[0][0] === 3 && gone ? pass("rename_table") : fail("rename_table", JSON.stringify(c.rows));
});

await check("drop_table", async () => {
  await catalog.dropTable({ namespace: ["js"], name: "events" }, { purge: true });
  const exists = await catalog.tableExists({ namespace: ["js"], name: "events" });
  let st = 0;
  try { await sql("SELECT * FROM js.events"); } catch (e) { st = /42P01/.test(String(e)) ? 1 : 2; }
  !exists && st === 1 ? pass("drop_table") : fail("drop_table", `exists=${exists} st=${st}`);
});

await check("drop_namespace", async () => {
  let notEmpty = 0;
  try { await catalog.dropNamespace({ namespace: ["js"] }); } catch (e) { notEmpty = e.status; }
  await sql("DROP TABLE js.dst");
  await catalog.dropNamespace({ namespace: ["js"] });
  const exists = await catalog.namespaceExists({ namespace: ["js"] });
  notEmpty === 409 && !exists ? pass("drop_namespace") : fail("drop_namespace", `notEmpty=${notEmpty} exists=${exists}`);
});

process.exit(failures ? 1 : 0);
