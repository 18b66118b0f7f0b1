#!/usr/bin/python3
# tests/server/introspect_sqlalchemy.py CONNINFO — SQLAlchemy's PostgreSQL
# dialect (Debian python3-sqlalchemy, driver psycopg2) against a server:
# connect (the dialect's own start-up queries: version, standard strings,
# isolation level), reflect tables through the Inspector (schemas,
# tables, has_table, columns with types / nullability, primary keys (one
# and two columns, in key order: unnest(pg_index.indkey) with
# generate_subscripts over an int2vector), indexes, unique and check
# constraints, foreign keys, view names), Table(..., autoload_with=engine),
# then insert, select, update and delete through the autoloaded Table, with
# bound parameters.  Prints one line per fact; run on floe and on
# PostgreSQL 15, the outputs must match.
import sys
import sqlalchemy as sa

conninfo = dict(kv.split('=', 1) for kv in sys.argv[1].split())
url = sa.engine.URL.create('postgresql+psycopg2', username=conninfo['user'],
                           host=conninfo['host'], port=int(conninfo['port']),
                           database=conninfo['dbname'])
eng = sa.create_engine(url, future=True, echo=bool(__import__("os").environ.get("SQLA_ECHO")))
with eng.begin() as c:
    c.execute(sa.text('DROP SCHEMA IF EXISTS intro_sqla CASCADE'))
    c.execute(sa.text('CREATE SCHEMA intro_sqla'))
    c.execute(sa.text('CREATE TABLE intro_sqla.item (id bigint PRIMARY KEY, name varchar(20) NOT NULL, '
                      'price numeric(10,2), added timestamptz, flag boolean, qty integer, ratio double precision, '
                      'born date, note text)'))
    c.execute(sa.text('CREATE TABLE intro_sqla.two (a integer, b integer, c text, PRIMARY KEY (b, a))'))
print('server_version_info', eng.dialect.server_version_info[:1])
ins = sa.inspect(eng)
print('has_table', ins.has_table('item', schema='intro_sqla'), ins.has_table('nope', schema='intro_sqla'))
print('schemas', 'intro_sqla' in ins.get_schema_names())
print('tables', ins.get_table_names(schema='intro_sqla'))
print('views', ins.get_view_names(schema='intro_sqla'))
for col in ins.get_columns('item', schema='intro_sqla'):
    print('column', col['name'], repr(col['type']), col['nullable'], col.get('default'))
print('fks', ins.get_foreign_keys('item', schema='intro_sqla'))
for t in ('item', 'two'):
    print('pk', t, ins.get_pk_constraint(t, schema='intro_sqla'))
    print('indexes', t, ins.get_indexes(t, schema='intro_sqla'))
    print('unique', t, ins.get_unique_constraints(t, schema='intro_sqla'))
    print('checks', t, ins.get_check_constraints(t, schema='intro_sqla'))
md = sa.MetaData()
item = sa.Table('item', md, autoload_with=eng, schema='intro_sqla')
two = sa.Table('two', md, autoload_with=eng, schema='intro_sqla')
print('reflected', [c.name for c in item.columns])
for t in (item, two):
    print('autoload', t.name, [(c.name, repr(c.type), c.nullable, c.primary_key) for c in t.columns],
          [c.name for c in t.primary_key.columns], t.primary_key.name)
import datetime, decimal
with eng.begin() as c:
    c.execute(item.insert(), [
        dict(id=1, name='bolt', price=decimal.Decimal('1.50'), added=datetime.datetime(2024, 3, 5, 12, 0, tzinfo=datetime.timezone.utc),
             flag=True, qty=10, ratio=0.25, born=datetime.date(2020, 1, 2), note=None),
        dict(id=2, name='nut', price=decimal.Decimal('0.10'), added=None, flag=False, qty=None, ratio=1e-3,
             born=None, note='x'),
    ])
with eng.connect() as c:
    rows = c.execute(sa.select(item).where(item.c.price > sa.bindparam('p')).order_by(item.c.id),
                     {'p': decimal.Decimal('0.05')}).all()
    for r in rows:
        print('row', tuple(r))
    print('count', c.execute(sa.select(sa.func.count()).select_from(item)).scalar_one())
    print('sum', c.execute(sa.select(sa.func.sum(item.c.price))).scalar_one())
with eng.begin() as c:
    c.execute(item.update().where(item.c.id == 2).values(qty=5))
    c.execute(item.delete().where(item.c.id == 1))
with eng.connect() as c:
    print('after', [tuple(r) for r in c.execute(sa.select(item.c.id, item.c.qty))])
with eng.begin() as c:
    c.execute(sa.text('DROP SCHEMA intro_sqla CASCADE'))
