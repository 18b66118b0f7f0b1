/*
 * pgcatalog.c — PostgreSQL's system catalogs (pg_catalog) and the SQL
 * standard's information_schema as relations built from floe's catalog.
 *
 * Spec: PostgreSQL 15 documentation chapters 53 "System Catalogs" and 37
 * "The Information Schema".  Every relation has PostgreSQL 15's columns, in
 * its order and with its names (the table rels[] below lists them, taken
 * from a PostgreSQL 15 server's own pg_attribute); columns floe knows are
 * filled from the catalog (namespaces, tables, Iceberg schemas) at the
 * call, the others hold PostgreSQL's value for an ordinary heap table and
 * otherwise NULL.  Relations of objects floe does not have (indexes,
 * constraints, comments, functions, policies, publications, ...) are empty.
 *
 * Types: oid and regproc-less catalogs need one choice (docs/catalog.md):
 *   oid -> integer (int4; floe's oids stay below 2^31), name and "char" ->
 *   text, arrays other than int2vector, oidvector and
 *   int2[] (pg_index.indkey, pg_constraint.conkey ...), pg_node_tree,
 *   aclitem[] -> text (NULL or an array's text form), information_schema's sql_identifier,
 *   character_data, yes_or_no -> text and cardinal_number -> integer.
 *
 * Oids: PostgreSQL's fixed ones (namespaces pg_catalog 11, public 2200;
 * type oids; role 10; database 5; heap am 2), and for user namespaces and
 * tables a hash of the name into [16384, 2^31) — stable across calls and
 * processes for the same name (pgcatalog_oid_of).
 *
 * INTERFACE ROUTINES
 *   pgcatalog_relation(s, ctx, schema, name, a, &found, &ncols, &names, &types, &op, err)
 *                                         (bind.h)
 *   pgcatalog_table_oid(ns, name)         a table's oid (bind_expr.c: regclass)
 *   pgcatalog_visible_oids(s, a, &oids, &n, err)   oids of the tables on the
 *                                         search_path (pg_table_is_visible)
 *   pgcatalog_type_oid(t) / pgcatalog_typmod(t)     a SqlType as pg_attribute
 *                                         describes it
 *   pgcatalog_regclass(s, a, text, &oid, err)   'name'::regclass (42P01)
 *   pgcatalog_regtype(text, &oid, err)          'name'::regtype (42704)
 *   pgcatalog_user(s) / pgcatalog_database(s)   current_user, current_database()
 *   pgcatalog_is_relation(s, schema, name)   one of these relations?
 *   pgcatalog_pkey_defs(s, a, pretty, &oids, &cols, &defs, &n, err)
 *                                         pg_get_indexdef (column cols[i]; 0 =
 *                                         all) / pg_get_constraintdef texts of
 *                                         the primary keys
 *   pgcatalog_setting(s, name, &found) / pgcatalog_settings(s, a, &names, &values)
 *                                         current_setting(); pg_settings' rows
 *
 * Invariants: rows are built at the call into the statement's arena and
 * emitted by a tiny operator (RowsOp) that copies them into a fresh batch
 * at every next(), so consumers may set selections or flatten freely and
 * re-opening restarts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "func/func.h"
#include "sql/bind.h"
#include "sql/check.h"
#include "server/users.h"
#include "sql/acl.h"
#include "sql/constrel.h"
#include "sql/engine.h"
#include "sql/pgcatalog.h"
#include "sql/sequence.h"
#include "sql/temp.h"
#include "sql/txn.h"
#include "sql/views.h"
#include "sql/indexes.h"
#include "types/udt.h"
#include "types/array.h"
#include "table/metadata.h"
#include "table/table.h"

enum { NS_PG, NS_INFO };

typedef struct RelDef {
	int ns;
	const char *name;
	const char *spec;   /* "col:code ...": o oid, n name, c "char", t text,
			       b bool, s int2, i int4, l int8, f float4, d float8,
			       z timestamptz, v int2vector, w oidvector,
			       a int2[], x other (text) */
} RelDef;

static const RelDef rels[] = {
	{ NS_INFO, "columns",
	  "table_catalog:n table_schema:n table_name:n column_name:n "
	  "ordinal_position:i column_default:t is_nullable:t data_type:t "
	  "character_maximum_length:i character_octet_length:i "
	  "numeric_precision:i numeric_precision_radix:i numeric_scale:i "
	  "datetime_precision:i interval_type:t interval_precision:i "
	  "character_set_catalog:n character_set_schema:n character_set_name:n "
	  "collation_catalog:n collation_schema:n collation_name:n "
	  "domain_catalog:n domain_schema:n domain_name:n udt_catalog:n "
	  "udt_schema:n udt_name:n scope_catalog:n scope_schema:n scope_name:n "
	  "maximum_cardinality:i dtd_identifier:n is_self_referencing:t "
	  "is_identity:t identity_generation:t identity_start:t "
	  "identity_increment:t identity_maximum:t identity_minimum:t "
	  "identity_cycle:t is_generated:t generation_expression:t "
	  "is_updatable:t " },
	{ NS_INFO, "constraint_column_usage",
	  "table_catalog:n table_schema:n table_name:n column_name:n "
	  "constraint_catalog:n constraint_schema:n constraint_name:n " },
	{ NS_INFO, "key_column_usage",
	  "constraint_catalog:n constraint_schema:n constraint_name:n "
	  "table_catalog:n table_schema:n table_name:n column_name:n "
	  "ordinal_position:i position_in_unique_constraint:i " },
	{ NS_INFO, "referential_constraints",
	  "constraint_catalog:n constraint_schema:n constraint_name:n "
	  "unique_constraint_catalog:n unique_constraint_schema:n "
	  "unique_constraint_name:n match_option:t update_rule:t delete_rule:t " },
	{ NS_INFO, "routines",
	  "specific_catalog:n specific_schema:n specific_name:n "
	  "routine_catalog:n routine_schema:n routine_name:n routine_type:t "
	  "module_catalog:n module_schema:n module_name:n udt_catalog:n "
	  "udt_schema:n udt_name:n data_type:t character_maximum_length:i "
	  "character_octet_length:i character_set_catalog:n "
	  "character_set_schema:n character_set_name:n collation_catalog:n "
	  "collation_schema:n collation_name:n numeric_precision:i "
	  "numeric_precision_radix:i numeric_scale:i datetime_precision:i "
	  "interval_type:t interval_precision:i type_udt_catalog:n "
	  "type_udt_schema:n type_udt_name:n scope_catalog:n scope_schema:n "
	  "scope_name:n maximum_cardinality:i dtd_identifier:n routine_body:t "
	  "routine_definition:t external_name:t external_language:t "
	  "parameter_style:t is_deterministic:t sql_data_access:t is_null_call:t "
	  "sql_path:t schema_level_routine:t max_dynamic_result_sets:i "
	  "is_user_defined_cast:t is_implicitly_invocable:t security_type:t "
	  "to_sql_specific_catalog:n to_sql_specific_schema:n "
	  "to_sql_specific_name:n as_locator:t created:z last_altered:z "
	  "new_savepoint_level:t is_udt_dependent:t result_cast_from_data_type:t "
	  "result_cast_as_locator:t result_cast_char_max_length:i "
	  "result_cast_char_octet_length:i result_cast_char_set_catalog:n "
	  "result_cast_char_set_schema:n result_cast_char_set_name:n "
	  "result_cast_collation_catalog:n result_cast_collation_schema:n "
	  "result_cast_collation_name:n result_cast_numeric_precision:i "
	  "result_cast_numeric_precision_radix:i result_cast_numeric_scale:i "
	  "result_cast_datetime_precision:i result_cast_interval_type:t "
	  "result_cast_interval_precision:i result_cast_type_udt_catalog:n "
	  "result_cast_type_udt_schema:n result_cast_type_udt_name:n "
	  "result_cast_scope_catalog:n result_cast_scope_schema:n "
	  "result_cast_scope_name:n result_cast_maximum_cardinality:i "
	  "result_cast_dtd_identifier:n " },
	{ NS_INFO, "schemata",
	  "catalog_name:n schema_name:n schema_owner:n "
	  "default_character_set_catalog:n default_character_set_schema:n "
	  "default_character_set_name:n sql_path:t " },
	{ NS_INFO, "sequences",
	  "sequence_catalog:n sequence_schema:n sequence_name:n data_type:t "
	  "numeric_precision:i numeric_precision_radix:i numeric_scale:i "
	  "start_value:t minimum_value:t maximum_value:t increment:t "
	  "cycle_option:t " },
	{ NS_INFO, "table_constraints",
	  "constraint_catalog:n constraint_schema:n constraint_name:n "
	  "table_catalog:n table_schema:n table_name:n constraint_type:t "
	  "is_deferrable:t initially_deferred:t enforced:t nulls_distinct:t " },
	{ NS_INFO, "tables",
	  "table_catalog:n table_schema:n table_name:n table_type:t "
	  "self_referencing_column_name:n reference_generation:t "
	  "user_defined_type_catalog:n user_defined_type_schema:n "
	  "user_defined_type_name:n is_insertable_into:t is_typed:t "
	  "commit_action:t " },
	{ NS_INFO, "views",
	  "table_catalog:n table_schema:n table_name:n view_definition:t "
	  "check_option:t is_updatable:t is_insertable_into:t "
	  "is_trigger_updatable:t is_trigger_deletable:t "
	  "is_trigger_insertable_into:t " },
	{ NS_PG, "pg_am",
	  "oid:o amname:n amhandler:t amtype:c " },
	{ NS_PG, "pg_attrdef",
	  "oid:o adrelid:o adnum:s adbin:x " },
	{ NS_PG, "pg_attribute",
	  "attrelid:o attname:n atttypid:o attstattarget:i attlen:s attnum:s "
	  "attndims:i attcacheoff:i atttypmod:i attbyval:b attalign:c "
	  "attstorage:c attcompression:c attnotnull:b atthasdef:b "
	  "atthasmissing:b attidentity:c attgenerated:c attisdropped:b "
	  "attislocal:b attinhcount:i attcollation:o attacl:x attoptions:x "
	  "attfdwoptions:x attmissingval:x " },
	{ NS_PG, "pg_auth_members",
	  "roleid:o member:o grantor:o admin_option:b " },
	{ NS_PG, "pg_authid",
	  "oid:o rolname:n rolsuper:b rolinherit:b rolcreaterole:b rolcreatedb:b "
	  "rolcanlogin:b rolreplication:b rolbypassrls:b rolconnlimit:i "
	  "rolpassword:t rolvaliduntil:z " },
	{ NS_PG, "pg_class",
	  "oid:o relname:n relnamespace:o reltype:o reloftype:o relowner:o "
	  "relam:o relfilenode:o reltablespace:o relpages:i reltuples:f "
	  "relallvisible:i reltoastrelid:o relhasindex:b relisshared:b "
	  "relpersistence:c relkind:c relnatts:s relchecks:s relhasrules:b "
	  "relhastriggers:b relhassubclass:b relrowsecurity:b "
	  "relforcerowsecurity:b relispopulated:b relreplident:c "
	  "relispartition:b relrewrite:o relfrozenxid:x relminmxid:x relacl:x "
	  "reloptions:x relpartbound:x " },
	{ NS_PG, "pg_collation",
	  "oid:o collname:n collnamespace:o collowner:o collprovider:c "
	  "collisdeterministic:b collencoding:i collcollate:t collctype:t "
	  "colliculocale:t collversion:t " },
	{ NS_PG, "pg_constraint",
	  "oid:o conname:n connamespace:o contype:c condeferrable:b "
	  "condeferred:b convalidated:b conrelid:o contypid:o conindid:o "
	  "conparentid:o confrelid:o confupdtype:c confdeltype:c confmatchtype:c "
	  "conislocal:b coninhcount:i connoinherit:b conkey:a confkey:a "
	  "conpfeqop:x conppeqop:x conffeqop:x confdelsetcols:x conexclop:x "
	  "conbin:x " },
	{ NS_PG, "pg_database",
	  "oid:o datname:n datdba:o encoding:i datlocprovider:c datistemplate:b "
	  "datallowconn:b datconnlimit:i datfrozenxid:x datminmxid:x "
	  "dattablespace:o datcollate:t datctype:t daticulocale:t "
	  "datcollversion:t datacl:x " },
	{ NS_PG, "pg_description",
	  "objoid:o classoid:o objsubid:i description:t " },
	{ NS_PG, "pg_enum",
	  "oid:o enumtypid:o enumsortorder:f enumlabel:n " },
	{ NS_PG, "pg_extension",
	  "oid:o extname:n extowner:o extnamespace:o extrelocatable:b "
	  "extversion:t extconfig:x extcondition:x " },
	{ NS_PG, "pg_foreign_table",
	  "ftrelid:o ftserver:o ftoptions:x " },
	{ NS_PG, "pg_index",
	  "indexrelid:o indrelid:o indnatts:s indnkeyatts:s indisunique:b "
	  "indnullsnotdistinct:b indisprimary:b indisexclusion:b indimmediate:b "
	  "indisclustered:b indisvalid:b indcheckxmin:b indisready:b indislive:b "
	  "indisreplident:b indkey:v indcollation:w indclass:w indoption:v "
	  "indexprs:x indpred:x " },
	{ NS_PG, "pg_indexes",
	  "schemaname:n tablename:n indexname:n tablespace:n indexdef:t " },
	{ NS_PG, "pg_inherits",
	  "inhrelid:o inhparent:o inhseqno:i inhdetachpending:b " },
	{ NS_PG, "pg_matviews",
	  "schemaname:n matviewname:n matviewowner:n tablespace:n hasindexes:b "
	  "ispopulated:b definition:t " },
	{ NS_PG, "pg_namespace",
	  "oid:o nspname:n nspowner:o nspacl:x " },
	{ NS_PG, "pg_partitioned_table",
	  "partrelid:o partstrat:c partnatts:s partdefid:o partattrs:x "
	  "partclass:x partcollation:x partexprs:x " },
	{ NS_PG, "pg_policy",
	  "oid:o polname:n polrelid:o polcmd:c polpermissive:b polroles:x "
	  "polqual:x polwithcheck:x " },
	{ NS_PG, "pg_proc",
	  "oid:o proname:n pronamespace:o proowner:o prolang:o procost:f "
	  "prorows:f provariadic:o prosupport:t prokind:c prosecdef:b "
	  "proleakproof:b proisstrict:b proretset:b provolatile:c proparallel:c "
	  "pronargs:s pronargdefaults:s prorettype:o proargtypes:x "
	  "proallargtypes:x proargmodes:x proargnames:x proargdefaults:x "
	  "protrftypes:x prosrc:t probin:t prosqlbody:x proconfig:x proacl:x " },
	{ NS_PG, "pg_publication",
	  "oid:o pubname:n pubowner:o puballtables:b pubinsert:b pubupdate:b "
	  "pubdelete:b pubtruncate:b pubviaroot:b " },
	{ NS_PG, "pg_publication_namespace",
	  "oid:o pnpubid:o pnnspid:o " },
	{ NS_PG, "pg_publication_rel",
	  "oid:o prpubid:o prrelid:o prqual:x prattrs:v " },
	{ NS_PG, "pg_range",
	  "rngtypid:o rngsubtype:o rngmultitypid:o rngcollation:o rngsubopc:o "
	  "rngcanonical:t rngsubdiff:t " },
	{ NS_PG, "pg_rewrite",
	  "oid:o rulename:n ev_class:o ev_type:c ev_enabled:c is_instead:b "
	  "ev_qual:x ev_action:x " },
	{ NS_PG, "pg_roles",
	  "rolname:n rolsuper:b rolinherit:b rolcreaterole:b rolcreatedb:b "
	  "rolcanlogin:b rolreplication:b rolconnlimit:i rolpassword:t "
	  "rolvaliduntil:z rolbypassrls:b rolconfig:x oid:o " },
	{ NS_PG, "pg_sequence",
	  "seqrelid:o seqtypid:o seqstart:l seqincrement:l seqmax:l seqmin:l "
	  "seqcache:l seqcycle:b " },
	{ NS_PG, "pg_sequences",
	  "schemaname:n sequencename:n sequenceowner:n data_type:x start_value:l "
	  "min_value:l max_value:l increment_by:l cycle:b cache_size:l "
	  "last_value:l " },
	{ NS_PG, "pg_settings",
	  "name:t setting:t unit:t category:t short_desc:t extra_desc:t "
	  "context:t vartype:t source:t min_val:t max_val:t enumvals:x "
	  "boot_val:t reset_val:t sourcefile:t sourceline:i pending_restart:b " },
	{ NS_PG, "pg_shdescription",
	  "objoid:o classoid:o description:t " },
	{ NS_PG, "pg_statistic_ext",
	  "oid:o stxrelid:o stxname:n stxnamespace:o stxowner:o stxstattarget:i "
	  "stxkeys:x stxkind:x stxexprs:x " },
	{ NS_PG, "pg_tables",
	  "schemaname:n tablename:n tableowner:n tablespace:n hasindexes:b "
	  "hasrules:b hastriggers:b rowsecurity:b " },
	{ NS_PG, "pg_tablespace",
	  "oid:o spcname:n spcowner:o spcacl:x spcoptions:x " },
	{ NS_PG, "pg_trigger",
	  "oid:o tgrelid:o tgparentid:o tgname:n tgfoid:o tgtype:s tgenabled:c "
	  "tgisinternal:b tgconstrrelid:o tgconstrindid:o tgconstraint:o "
	  "tgdeferrable:b tginitdeferred:b tgnargs:s tgattr:x tgargs:x tgqual:x "
	  "tgoldtable:n tgnewtable:n " },
	{ NS_PG, "pg_type",
	  "oid:o typname:n typnamespace:o typowner:o typlen:s typbyval:b "
	  "typtype:c typcategory:c typispreferred:b typisdefined:b typdelim:c "
	  "typrelid:o typsubscript:t typelem:o typarray:o typinput:t typoutput:t "
	  "typreceive:t typsend:t typmodin:t typmodout:t typanalyze:t typalign:c "
	  "typstorage:c typnotnull:b typbasetype:o typtypmod:i typndims:i "
	  "typcollation:o typdefaultbin:x typdefault:t typacl:x " },
	{ NS_PG, "pg_user",
	  "usename:n usesysid:o usecreatedb:b usesuper:b userepl:b "
	  "usebypassrls:b passwd:t valuntil:z useconfig:x " },
	{ NS_PG, "pg_views",
	  "schemaname:n viewname:n viewowner:n definition:t " },
	{ NS_INFO, "applicable_roles",
	  "grantee:n role_name:n is_grantable:t " },
	{ NS_INFO, "attributes",
	  "udt_catalog:n udt_schema:n udt_name:n attribute_name:n "
	  "ordinal_position:i attribute_default:t is_nullable:t data_type:t "
	  "character_maximum_length:i character_octet_length:i "
	  "character_set_catalog:n character_set_schema:n character_set_name:n "
	  "collation_catalog:n collation_schema:n collation_name:n "
	  "numeric_precision:i numeric_precision_radix:i numeric_scale:i "
	  "datetime_precision:i interval_type:t interval_precision:i "
	  "attribute_udt_catalog:n attribute_udt_schema:n attribute_udt_name:n "
	  "scope_catalog:n scope_schema:n scope_name:n maximum_cardinality:i "
	  "dtd_identifier:n is_derived_reference_attribute:t " },
	{ NS_INFO, "character_sets",
	  "character_set_catalog:n character_set_schema:n character_set_name:n "
	  "character_repertoire:n form_of_use:n default_collate_catalog:n "
	  "default_collate_schema:n default_collate_name:n " },
	{ NS_INFO, "check_constraint_routine_usage",
	  "constraint_catalog:n constraint_schema:n constraint_name:n "
	  "specific_catalog:n specific_schema:n specific_name:n " },
	{ NS_INFO, "check_constraints",
	  "constraint_catalog:n constraint_schema:n constraint_name:n "
	  "check_clause:t " },
	{ NS_INFO, "collations",
	  "collation_catalog:n collation_schema:n collation_name:n "
	  "pad_attribute:t " },
	{ NS_INFO, "column_domain_usage",
	  "domain_catalog:n domain_schema:n domain_name:n table_catalog:n "
	  "table_schema:n table_name:n column_name:n " },
	{ NS_INFO, "column_privileges",
	  "grantor:n grantee:n table_catalog:n table_schema:n table_name:n "
	  "column_name:n privilege_type:t is_grantable:t " },
	{ NS_INFO, "column_udt_usage",
	  "udt_catalog:n udt_schema:n udt_name:n table_catalog:n table_schema:n "
	  "table_name:n column_name:n " },
	{ NS_INFO, "constraint_table_usage",
	  "table_catalog:n table_schema:n table_name:n constraint_catalog:n "
	  "constraint_schema:n constraint_name:n " },
	{ NS_INFO, "domain_constraints",
	  "constraint_catalog:n constraint_schema:n constraint_name:n "
	  "domain_catalog:n domain_schema:n domain_name:n is_deferrable:t "
	  "initially_deferred:t " },
	{ NS_INFO, "domains",
	  "domain_catalog:n domain_schema:n domain_name:n data_type:t "
	  "character_maximum_length:i character_octet_length:i "
	  "character_set_catalog:n character_set_schema:n character_set_name:n "
	  "collation_catalog:n collation_schema:n collation_name:n "
	  "numeric_precision:i numeric_precision_radix:i numeric_scale:i "
	  "datetime_precision:i interval_type:t interval_precision:i "
	  "domain_default:t udt_catalog:n udt_schema:n udt_name:n "
	  "scope_catalog:n scope_schema:n scope_name:n maximum_cardinality:i "
	  "dtd_identifier:n " },
	{ NS_INFO, "element_types",
	  "object_catalog:n object_schema:n object_name:n object_type:t "
	  "collection_type_identifier:n data_type:t character_maximum_length:i "
	  "character_octet_length:i character_set_catalog:n "
	  "character_set_schema:n character_set_name:n collation_catalog:n "
	  "collation_schema:n collation_name:n numeric_precision:i "
	  "numeric_precision_radix:i numeric_scale:i datetime_precision:i "
	  "interval_type:t interval_precision:i domain_default:t udt_catalog:n "
	  "udt_schema:n udt_name:n scope_catalog:n scope_schema:n scope_name:n "
	  "maximum_cardinality:i dtd_identifier:n " },
	{ NS_INFO, "enabled_roles",
	  "role_name:n " },
	{ NS_INFO, "foreign_servers",
	  "foreign_server_catalog:n foreign_server_name:n "
	  "foreign_data_wrapper_catalog:n foreign_data_wrapper_name:n "
	  "foreign_server_type:t foreign_server_version:t "
	  "authorization_identifier:n " },
	{ NS_INFO, "foreign_tables",
	  "foreign_table_catalog:n foreign_table_schema:n foreign_table_name:n "
	  "foreign_server_catalog:n foreign_server_name:n " },
	{ NS_INFO, "information_schema_catalog_name",
	  "catalog_name:n " },
	{ NS_INFO, "parameters",
	  "specific_catalog:n specific_schema:n specific_name:n "
	  "ordinal_position:i parameter_mode:t is_result:t as_locator:t "
	  "parameter_name:n data_type:t character_maximum_length:i "
	  "character_octet_length:i character_set_catalog:n "
	  "character_set_schema:n character_set_name:n collation_catalog:n "
	  "collation_schema:n collation_name:n numeric_precision:i "
	  "numeric_precision_radix:i numeric_scale:i datetime_precision:i "
	  "interval_type:t interval_precision:i udt_catalog:n udt_schema:n "
	  "udt_name:n scope_catalog:n scope_schema:n scope_name:n "
	  "maximum_cardinality:i dtd_identifier:n parameter_default:t " },
	{ NS_INFO, "role_column_grants",
	  "grantor:n grantee:n table_catalog:n table_schema:n table_name:n "
	  "column_name:n privilege_type:t is_grantable:t " },
	{ NS_INFO, "role_table_grants",
	  "grantor:n grantee:n table_catalog:n table_schema:n table_name:n "
	  "privilege_type:t is_grantable:t with_hierarchy:t " },
	{ NS_INFO, "routine_privileges",
	  "grantor:n grantee:n specific_catalog:n specific_schema:n "
	  "specific_name:n routine_catalog:n routine_schema:n routine_name:n "
	  "privilege_type:t is_grantable:t " },
	{ NS_INFO, "sql_features",
	  "feature_id:t feature_name:t sub_feature_id:t sub_feature_name:t "
	  "is_supported:t is_verified_by:t comments:t " },
	{ NS_INFO, "table_privileges",
	  "grantor:n grantee:n table_catalog:n table_schema:n table_name:n "
	  "privilege_type:t is_grantable:t with_hierarchy:t " },
	{ NS_INFO, "triggers",
	  "trigger_catalog:n trigger_schema:n trigger_name:n "
	  "event_manipulation:t event_object_catalog:n event_object_schema:n "
	  "event_object_table:n action_order:i action_condition:t "
	  "action_statement:t action_orientation:t action_timing:t "
	  "action_reference_old_table:n action_reference_new_table:n "
	  "action_reference_old_row:n action_reference_new_row:n created:z " },
	{ NS_INFO, "udt_privileges",
	  "grantor:n grantee:n udt_catalog:n udt_schema:n udt_name:n "
	  "privilege_type:t is_grantable:t " },
	{ NS_INFO, "usage_privileges",
	  "grantor:n grantee:n object_catalog:n object_schema:n object_name:n "
	  "object_type:t privilege_type:t is_grantable:t " },
	{ NS_INFO, "user_defined_types",
	  "user_defined_type_catalog:n user_defined_type_schema:n "
	  "user_defined_type_name:n user_defined_type_category:t "
	  "is_instantiable:t is_final:t ordering_form:t ordering_category:t "
	  "ordering_routine_catalog:n ordering_routine_schema:n "
	  "ordering_routine_name:n reference_type:t data_type:t "
	  "character_maximum_length:i character_octet_length:i "
	  "character_set_catalog:n character_set_schema:n character_set_name:n "
	  "collation_catalog:n collation_schema:n collation_name:n "
	  "numeric_precision:i numeric_precision_radix:i numeric_scale:i "
	  "datetime_precision:i interval_type:t interval_precision:i "
	  "source_dtd_identifier:n ref_dtd_identifier:n " },
	{ NS_INFO, "view_column_usage",
	  "view_catalog:n view_schema:n view_name:n table_catalog:n "
	  "table_schema:n table_name:n column_name:n " },
	{ NS_INFO, "view_table_usage",
	  "view_catalog:n view_schema:n view_name:n table_catalog:n "
	  "table_schema:n table_name:n " },
	{ NS_PG, "pg_aggregate",
	  "aggfnoid:t aggkind:c aggnumdirectargs:s aggtransfn:t aggfinalfn:t "
	  "aggcombinefn:t aggserialfn:t aggdeserialfn:t aggmtransfn:t "
	  "aggminvtransfn:t aggmfinalfn:t aggfinalextra:b aggmfinalextra:b "
	  "aggfinalmodify:c aggmfinalmodify:c aggsortop:o aggtranstype:o "
	  "aggtransspace:i aggmtranstype:o aggmtransspace:i agginitval:t "
	  "aggminitval:t " },
	{ NS_PG, "pg_amop",
	  "oid:o amopfamily:o amoplefttype:o amoprighttype:o amopstrategy:s "
	  "amoppurpose:c amopopr:o amopmethod:o amopsortfamily:o " },
	{ NS_PG, "pg_amproc",
	  "oid:o amprocfamily:o amproclefttype:o amprocrighttype:o amprocnum:s "
	  "amproc:t " },
	{ NS_PG, "pg_available_extensions",
	  "name:n default_version:t installed_version:t comment:t " },
	{ NS_PG, "pg_cast",
	  "oid:o castsource:o casttarget:o castfunc:o castcontext:c castmethod:c " },
	{ NS_PG, "pg_conversion",
	  "oid:o conname:n connamespace:o conowner:o conforencoding:i "
	  "contoencoding:i conproc:t condefault:b " },
	{ NS_PG, "pg_cursors",
	  "name:t statement:t is_holdable:b is_binary:b is_scrollable:b "
	  "creation_time:z " },
	{ NS_PG, "pg_db_role_setting",
	  "setdatabase:o setrole:o setconfig:x " },
	{ NS_PG, "pg_default_acl",
	  "oid:o defaclrole:o defaclnamespace:o defaclobjtype:c defaclacl:x " },
	{ NS_PG, "pg_depend",
	  "classid:o objid:o objsubid:i refclassid:o refobjid:o refobjsubid:i "
	  "deptype:c " },
	{ NS_PG, "pg_event_trigger",
	  "oid:o evtname:n evtevent:n evtowner:o evtfoid:o evtenabled:c "
	  "evttags:x " },
	{ NS_PG, "pg_file_settings",
	  "sourcefile:t sourceline:i seqno:i name:t setting:t applied:b error:t " },
	{ NS_PG, "pg_foreign_data_wrapper",
	  "oid:o fdwname:n fdwowner:o fdwhandler:o fdwvalidator:o fdwacl:x "
	  "fdwoptions:x " },
	{ NS_PG, "pg_foreign_server",
	  "oid:o srvname:n srvowner:o srvfdw:o srvtype:t srvversion:t srvacl:x "
	  "srvoptions:x " },
	{ NS_PG, "pg_group",
	  "groname:n grosysid:o grolist:x " },
	{ NS_PG, "pg_hba_file_rules",
	  "line_number:i type:t database:x user_name:x address:t netmask:t "
	  "auth_method:t options:x error:t " },
	{ NS_PG, "pg_init_privs",
	  "objoid:o classoid:o objsubid:i privtype:c initprivs:x " },
	{ NS_PG, "pg_language",
	  "oid:o lanname:n lanowner:o lanispl:b lanpltrusted:b lanplcallfoid:o "
	  "laninline:o lanvalidator:o lanacl:x " },
	{ NS_PG, "pg_largeobject",
	  "loid:o pageno:i data:x " },
	{ NS_PG, "pg_largeobject_metadata",
	  "oid:o lomowner:o lomacl:x " },
	{ NS_PG, "pg_locks",
	  "locktype:t database:o relation:o page:i tuple:s virtualxid:t "
	  "transactionid:x classid:o objid:o objsubid:s virtualtransaction:t "
	  "pid:i mode:t granted:b fastpath:b waitstart:z " },
	{ NS_PG, "pg_opclass",
	  "oid:o opcmethod:o opcname:n opcnamespace:o opcowner:o opcfamily:o "
	  "opcintype:o opcdefault:b opckeytype:o " },
	{ NS_PG, "pg_operator",
	  "oid:o oprname:n oprnamespace:o oprowner:o oprkind:c oprcanmerge:b "
	  "oprcanhash:b oprleft:o oprright:o oprresult:o oprcom:o oprnegate:o "
	  "oprcode:t oprrest:t oprjoin:t " },
	{ NS_PG, "pg_opfamily",
	  "oid:o opfmethod:o opfname:n opfnamespace:o opfowner:o " },
	{ NS_PG, "pg_policies",
	  "schemaname:n tablename:n policyname:n permissive:t roles:x cmd:t "
	  "qual:t with_check:t " },
	{ NS_PG, "pg_prepared_statements",
	  "name:t statement:t prepare_time:z parameter_types:x from_sql:b "
	  "generic_plans:l custom_plans:l " },
	{ NS_PG, "pg_prepared_xacts",
	  "transaction:x gid:t prepared:z owner:n database:n " },
	{ NS_PG, "pg_publication_tables",
	  "pubname:n schemaname:n tablename:n attnames:x rowfilter:t " },
	{ NS_PG, "pg_replication_slots",
	  "slot_name:n plugin:n slot_type:t datoid:o database:n temporary:b "
	  "active:b active_pid:i xmin:x catalog_xmin:x restart_lsn:x "
	  "confirmed_flush_lsn:x wal_status:t safe_wal_size:l two_phase:b " },
	{ NS_PG, "pg_rules",
	  "schemaname:n tablename:n rulename:n definition:t " },
	{ NS_PG, "pg_seclabel",
	  "objoid:o classoid:o objsubid:i provider:t label:t " },
	{ NS_PG, "pg_shadow",
	  "usename:n usesysid:o usecreatedb:b usesuper:b userepl:b "
	  "usebypassrls:b passwd:t valuntil:z useconfig:x " },
	{ NS_PG, "pg_shdepend",
	  "dbid:o classid:o objid:o objsubid:i refclassid:o refobjid:o deptype:c " },
	{ NS_PG, "pg_shseclabel",
	  "objoid:o classoid:o provider:t label:t " },
	{ NS_PG, "pg_stat_activity",
	  "datid:o datname:n pid:i leader_pid:i usesysid:o usename:n "
	  "application_name:t client_addr:x client_hostname:t client_port:i "
	  "backend_start:z xact_start:z query_start:z state_change:z "
	  "wait_event_type:t wait_event:t state:t backend_xid:x backend_xmin:x "
	  "query_id:l query:t backend_type:t " },
	{ NS_PG, "pg_stat_all_tables",
	  "relid:o schemaname:n relname:n seq_scan:l seq_tup_read:l idx_scan:l "
	  "idx_tup_fetch:l n_tup_ins:l n_tup_upd:l n_tup_del:l n_tup_hot_upd:l "
	  "n_live_tup:l n_dead_tup:l n_mod_since_analyze:l n_ins_since_vacuum:l "
	  "last_vacuum:z last_autovacuum:z last_analyze:z last_autoanalyze:z "
	  "vacuum_count:l autovacuum_count:l analyze_count:l autoanalyze_count:l " },
	{ NS_PG, "pg_stat_database",
	  "datid:o datname:n numbackends:i xact_commit:l xact_rollback:l "
	  "blks_read:l blks_hit:l tup_returned:l tup_fetched:l tup_inserted:l "
	  "tup_updated:l tup_deleted:l conflicts:l temp_files:l temp_bytes:l "
	  "deadlocks:l checksum_failures:l checksum_last_failure:z "
	  "blk_read_time:x blk_write_time:x session_time:x active_time:x "
	  "idle_in_transaction_time:x sessions:l sessions_abandoned:l "
	  "sessions_fatal:l sessions_killed:l stats_reset:z " },
	{ NS_PG, "pg_stat_replication",
	  "pid:i usesysid:o usename:n application_name:t client_addr:x "
	  "client_hostname:t client_port:i backend_start:z backend_xmin:x "
	  "state:t sent_lsn:x write_lsn:x flush_lsn:x replay_lsn:x write_lag:x "
	  "flush_lag:x replay_lag:x sync_priority:i sync_state:t reply_time:z " },
	{ NS_PG, "pg_stat_ssl",
	  "pid:i ssl:b version:t cipher:t bits:i client_dn:t client_serial:x "
	  "issuer_dn:t " },
	{ NS_PG, "pg_stat_subscription",
	  "subid:o subname:n pid:i relid:o received_lsn:x last_msg_send_time:z "
	  "last_msg_receipt_time:z latest_end_lsn:x latest_end_time:z " },
	{ NS_PG, "pg_stat_user_indexes",
	  "relid:o indexrelid:o schemaname:n relname:n indexrelname:n idx_scan:l "
	  "idx_tup_read:l idx_tup_fetch:l " },
	{ NS_PG, "pg_stat_user_tables",
	  "relid:o schemaname:n relname:n seq_scan:l seq_tup_read:l idx_scan:l "
	  "idx_tup_fetch:l n_tup_ins:l n_tup_upd:l n_tup_del:l n_tup_hot_upd:l "
	  "n_live_tup:l n_dead_tup:l n_mod_since_analyze:l n_ins_since_vacuum:l "
	  "last_vacuum:z last_autovacuum:z last_analyze:z last_autoanalyze:z "
	  "vacuum_count:l autovacuum_count:l analyze_count:l autoanalyze_count:l " },
	{ NS_PG, "pg_statio_user_indexes",
	  "relid:o indexrelid:o schemaname:n relname:n indexrelname:n "
	  "idx_blks_read:l idx_blks_hit:l " },
	{ NS_PG, "pg_statio_user_tables",
	  "relid:o schemaname:n relname:n heap_blks_read:l heap_blks_hit:l "
	  "idx_blks_read:l idx_blks_hit:l toast_blks_read:l toast_blks_hit:l "
	  "tidx_blks_read:l tidx_blks_hit:l " },
	{ NS_PG, "pg_statistic_ext_data",
	  "stxoid:o stxdinherit:b stxdndistinct:x stxddependencies:x stxdmcv:x "
	  "stxdexpr:x " },
	{ NS_PG, "pg_stats",
	  "schemaname:n tablename:n attname:n inherited:b null_frac:f "
	  "avg_width:i n_distinct:f most_common_vals:x most_common_freqs:x "
	  "histogram_bounds:x correlation:f most_common_elems:x "
	  "most_common_elem_freqs:x elem_count_histogram:x " },
	{ NS_PG, "pg_subscription",
	  "oid:o subdbid:o subskiplsn:x subname:n subowner:o subenabled:b "
	  "subbinary:b substream:b subtwophasestate:c subdisableonerr:b "
	  "subconninfo:t subslotname:n subsynccommit:t subpublications:x " },
	{ NS_PG, "pg_timezone_abbrevs",
	  "abbrev:t utc_offset:x is_dst:b " },
	{ NS_PG, "pg_transform",
	  "oid:o trftype:o trflang:o trffromsql:t trftosql:t " },
	{ NS_PG, "pg_ts_config",
	  "oid:o cfgname:n cfgnamespace:o cfgowner:o cfgparser:o " },
	{ NS_PG, "pg_ts_dict",
	  "oid:o dictname:n dictnamespace:o dictowner:o dicttemplate:o "
	  "dictinitoption:t " },
	{ NS_PG, "pg_ts_parser",
	  "oid:o prsname:n prsnamespace:o prsstart:t prstoken:t prsend:t "
	  "prsheadline:t prslextype:t " },
	{ NS_PG, "pg_ts_template",
	  "oid:o tmplname:n tmplnamespace:o tmplinit:t tmpllexize:t " },
	{ NS_PG, "pg_user_mapping",
	  "oid:o umuser:o umserver:o umoptions:x " },
	{ NS_PG, "pg_user_mappings",
	  "umid:o srvid:o srvname:n umuser:o usename:n umoptions:x " },
};

#define NRELS ((int)(sizeof rels / sizeof rels[0]))

static int64_t hash_oid(const char *a, const char *b);

/* a system relation's oid ('pg_class'::regclass) */
static int64_t
sys_oid(const struct RelDef *d)
{
	return hash_oid(d->ns == NS_PG ? "pg_catalog" : "information_schema", d->name);
}

#define OID_PG_CATALOG 11
#define OID_PUBLIC 2200
#define OID_INFO_SCHEMA 13000
#define OID_ROLE 10
#define OID_DATABASE 5
#define DEFAULT_USER "floe"
#define DEFAULT_DATABASE "floe"

/* ---- oids and types ----------------------------------------------------- */

static uint32_t
fnv1a(const char *a, const char *b)
{
	uint32_t h = 2166136261u;
	const char *p;
	for (p = a; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	h = (h ^ '.') * 16777619u;
	for (p = b; p && *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	return h;
}

static int64_t
hash_oid(const char *a, const char *b)
{
	return 16384 + (int64_t)(fnv1a(a, b) % (uint32_t)(2147483647 - 16384 - 16));
}

/* the oid of an object belonging to table ns.name (its index, its
 * primary key constraint): a hash of tag, ns and name */
static int64_t
tagged_oid(const char *tag, const char *ns, const char *name)
{
	uint32_t h = fnv1a(tag, ns);
	const char *p;
	h = (h ^ '.') * 16777619u;
	for (p = name; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	return 16384 + (int64_t)(h % (uint32_t)(2147483647 - 16384 - 16));
}

static int64_t
ns_oid(const char *ns)
{
	if (!strcmp(ns, "pg_catalog"))
		return OID_PG_CATALOG;
	if (!strcmp(ns, "public"))
		return OID_PUBLIC;
	if (!strcmp(ns, "information_schema"))
		return OID_INFO_SCHEMA;
	return hash_oid("", ns);
}

int64_t
pgcatalog_ns_oid(const char *ns)
{
	return ns_oid(ns);
}

int64_t
pgcatalog_table_oid(const char *ns, const char *name)
{
	return hash_oid(ns, name);
}

uint32_t
pgcatalog_type_oid(SqlType t)
{
	/* as pgwire.c's col_oid: varchar and char(n) are their own types */
	if (t.id == TYPE_TEXT && t.text_kind == TEXT_VARCHAR)
		return 1043;
	if (t.id == TYPE_TEXT && t.text_kind == TEXT_CHAR)
		return 1042;
	return type_pg_oid_of(t);   /* arrays: int2[] 1005, int2vector 22 ... */
}

int32_t
pgcatalog_typmod(SqlType t)
{
	if (t.id == TYPE_TEXT && t.text_kind != TEXT_PLAIN && t.typmod >= 0)
		return t.typmod + 4;
	if (t.id == TYPE_DECIMAL && t.precision > 0)
		return (((int32_t)t.precision << 16) | t.scale) + 4;
	if (t.id == TYPE_ARRAY && !t.vector)      /* numeric(4,1)[]: the element's */
		return pgcatalog_typmod(array_elem_type(t));
	return -1;
}

/* the builtin types of pg_type (PostgreSQL 15's rows for them) */
static const struct PgType {
	int32_t oid;
	const char *name;
	int16_t len;
	bool byval;
	char category;
	bool preferred;
	int32_t array;
	char align, storage;
	int32_t collation, elem;
} pgtypes[] = {
	{ 16, "bool", 1, true, 'B', true, 1000, 'c', 'p', 0, 0 },
	{ 17, "bytea", -1, false, 'U', false, 1001, 'i', 'x', 0, 0 },
	{ 18, "char", 1, true, 'Z', false, 1002, 'c', 'p', 0, 0 },
	{ 19, "name", 64, false, 'S', false, 1003, 'c', 'p', 950, 18 },
	{ 20, "int8", 8, true, 'N', false, 1016, 'd', 'p', 0, 0 },
	{ 21, "int2", 2, true, 'N', false, 1005, 's', 'p', 0, 0 },
	{ 22, "int2vector", -1, false, 'A', false, 1006, 'i', 'p', 0, 21 },
	{ 23, "int4", 4, true, 'N', false, 1007, 'i', 'p', 0, 0 },
	{ 25, "text", -1, false, 'S', true, 1009, 'i', 'x', 100, 0 },
	{ 114, "json", -1, false, 'U', false, 199, 'i', 'x', 0, 0 },
	{ 26, "oid", 4, true, 'N', true, 1028, 'i', 'p', 0, 0 },
	{ 30, "oidvector", -1, false, 'A', false, 1013, 'i', 'p', 0, 26 },
	{ 700, "float4", 4, true, 'N', false, 1021, 'i', 'p', 0, 0 },
	{ 701, "float8", 8, true, 'N', true, 1022, 'd', 'p', 0, 0 },
	{ 705, "unknown", -2, false, 'X', false, 0, 'c', 'p', 0, 0 },
	{ 1042, "bpchar", -1, false, 'S', false, 1014, 'i', 'x', 100, 0 },
	{ 1043, "varchar", -1, false, 'S', false, 1015, 'i', 'x', 100, 0 },
	{ 1082, "date", 4, true, 'D', false, 1182, 'i', 'p', 0, 0 },
	{ 1083, "time", 8, true, 'D', false, 1183, 'd', 'p', 0, 0 },
	{ 1114, "timestamp", 8, true, 'D', false, 1115, 'd', 'p', 0, 0 },
	{ 1184, "timestamptz", 8, true, 'D', true, 1185, 'd', 'p', 0, 0 },
	{ 1186, "interval", 16, false, 'T', true, 1187, 'd', 'p', 0, 0 },
	{ 1700, "numeric", -1, false, 'N', false, 1231, 'i', 'm', 0, 0 },
	{ 2205, "regclass", 4, true, 'N', false, 2210, 'i', 'p', 0, 0 },
	{ 2206, "regtype", 4, true, 'N', false, 2211, 'i', 'p', 0, 0 },
	{ 2950, "uuid", 16, false, 'U', false, 2951, 'c', 'p', 0, 0 },
	{ 3802, "jsonb", -1, false, 'U', false, 3807, 'i', 'x', 0, 0 },
	{ 4072, "jsonpath", -1, false, 'U', false, 4073, 'i', 'x', 0, 0 },
};
#define NPGTYPES ((int)(sizeof pgtypes / sizeof pgtypes[0]))

static const struct PgType *
pgtype_of(uint32_t oid)
{
	int i;
	for (i = 0; i < NPGTYPES; i++)
		if ((uint32_t)pgtypes[i].oid == oid)
			return &pgtypes[i];
	return NULL;
}

/* ---- relation being built ----------------------------------------------- */

typedef ConstRel Rel;        /* the relation being built */

static Value *
cell(Rel *r, Value *row, const char *col)
{
	int c;
	for (c = 0; c < r->ncols; c++)
		if (!strcmp(r->names[c], col))
			return &row[c];
	/* a misspelt column in this file: caught by the tests */
	fprintf(stderr, "pgcatalog: no column %s\n", col);
	abort();
}

static void
put_i(Rel *r, Value *row, const char *col, int64_t v)
{
	Value *x = cell(r, row, col);
	x->is_null = false;
	if (x->type.id == TYPE_FLOAT32)
		x->u.f = (double)v;
	else if (x->type.id == TYPE_BOOL)
		x->u.b = v != 0;
	else
		x->u.i = v;
}

static void
put_b(Rel *r, Value *row, const char *col, bool v)
{
	put_i(r, row, col, v);
}

static void
put_s(Rel *r, Value *row, const char *col, const char *s)
{
	Value *x = cell(r, row, col);
	if (!s)
		return;
	x->is_null = false;
	x->u.s = strview_make(s, (uint32_t)strlen(s));
}

/* an int2vector / oidvector / int2[] cell from n integers */
static void
put_arr(Rel *r, Value *row, const char *col, const int64_t *v, int n)
{
	Value *x = cell(r, row, col);
	SqlType et = array_elem_type(x->type);
	Value *e = ARENA_ARRAY(r->a, Value, n + 1);
	floe_error err;
	int k;
	for (k = 0; k < n; k++) {
		e[k] = value_null(et);
		e[k].is_null = false;
		e[k].u.i = v[k];
	}
	if (array_encode(r->a, x->type, e, (uint32_t)n, &x->u.s, &err) == FLOE_OK)
		x->is_null = false;
}

static void
put_c(Rel *r, Value *row, const char *col, char ch)
{
	char *s = arena_alloc(r->a, 2);
	s[0] = ch;
	s[1] = 0;
	put_s(r, row, col, s);
}

/* ---- floe's catalog at the call ------------------------------------------ */

typedef struct TabInfo {
	const char *ns, *name;
	int64_t oid, nsoid;
	const IcebergSchema *schema;   /* NULL unless loaded */
	char kind;                     /* pg_class.relkind: 'r', or 'v' (views.c) */
	const ViewDef *view;           /* a view's definition, when loaded */
	int nidx;                      /* recorded indexes (indexes.c), when loaded */
	IndexInfo *idx;
	int nchk;                      /* CHECK constraints (check.h), when loaded */
	CheckDef *chk;
} TabInfo;

typedef struct Snap {
	int nns;
	char **ns;
	int ntabs;
	TabInfo *tabs;
	const char *user, *db;
} Snap;

/* ---- primary keys (Iceberg identifier fields) ---------------------------- */

/* an identifier as PostgreSQL's quote_ident prints it */
static const char *
quote_ident(Arena *a, const char *id)
{
	const char *p;
	bool plain = id[0] && !(id[0] >= '0' && id[0] <= '9');
	size_t n = 0;
	char *o;
	for (p = id; *p && plain; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			plain = false;
	if (plain)
		return id;
	o = arena_alloc(a, 2 * strlen(id) + 3);
	o[n++] = '"';
	for (p = id; *p; p++) {
		if (*p == '"')
			o[n++] = '"';
		o[n++] = *p;
	}
	o[n++] = '"';
	o[n] = 0;
	return o;
}

static int64_t
pk_index_oid(const TabInfo *t)
{
	return tagged_oid("index", t->ns, t->name);
}

/* the field positions of the identifier fields, in key order */
static void
pk_columns(const IcebergSchema *sc, int *cols)
{
	int k, f;
	for (k = 0; k < sc->nidentifier; k++) {
		cols[k] = 0;
		for (f = 0; f < sc->nfields; f++)
			if (sc->fields[f].id == sc->identifier_field_ids[k])
				cols[k] = f;
	}
}

static const char *
pk_name(Arena *a, const TabInfo *t)
{
	return arena_sprintf(a, "%s_pkey", t->name);
}

static int64_t
pk_constraint_oid(const TabInfo *t)
{
	return tagged_oid("constraint", t->ns, t->name);
}

/* a CHECK constraint's oid (names are unique per table) */
static int64_t
chk_oid(Arena *a, const TabInfo *t, const CheckDef *d)
{
	return tagged_oid("floe.check", t->ns, arena_sprintf(a, "%s.%s", t->name, d->name));
}

/* ---- recorded indexes (indexes.c) --------------------------------------- */

static int64_t
idx_oid(const TabInfo *t, const IndexInfo *x)
{
	return tagged_oid("floe.index", t->ns, x->name);
}

/* pg_am's oid of the method the definition names */
static int64_t
idx_am(const IndexInfo *x)
{
	static const struct { const char *m; int oid; } am[] = {
		{ "USING hash", 405 }, { "USING gist", 783 }, { "USING gin", 2742 },
		{ "USING spgist", 4000 }, { "USING brin", 3580 },
	};
	size_t i;
	for (i = 0; i < sizeof am / sizeof am[0]; i++)
		if (!strncmp(x->tail, am[i].m, strlen(am[i].m)))
			return am[i].oid;
	return 403;
}

/* key column k's position in t (1-based), 0 for an expression */
static int
idx_col(const TabInfo *t, const IndexInfo *x, int k)
{
	int f;
	for (f = 0; t->schema && f < t->schema->nfields; f++)
		if (x->field_ids[k] && t->schema->fields[f].id == x->field_ids[k])
			return f + 1;
	return 0;
}

static const char *quote_ident(Arena *a, const char *id);

static const char *
idx_def(Arena *a, const TabInfo *t, const IndexInfo *x)
{
	return arena_sprintf(a, "CREATE INDEX %s ON %s.%s %s", quote_ident(a, x->name),
			     quote_ident(a, t->ns), quote_ident(a, t->name), x->tail);
}

/* the session's role: session_authorization when the embedder set it */
const char *
pgcatalog_session_user(Session *s)
{
	const char *u = session_setting(s, "session_authorization");
	return u && u[0] ? u : s->user ? s->user : DEFAULT_USER;
}

const char *
pgcatalog_user(Session *s)
{
	const char *u = session_setting(s, "role");
	if (u && u[0] && strcasecmp(u, "none"))
		return u;      /* SET ROLE (checked by acl.c) */
	u = session_setting(s, "session_authorization");
	return u && u[0] ? u : s->user ? s->user : DEFAULT_USER;
}

const char *
pgcatalog_database(Session *s)
{
	return s->database ? s->database : DEFAULT_DATABASE;
}

#define session_user_name pgcatalog_user
#define database_name pgcatalog_database

/* the views of ns (views.c) into sn, with their columns as a schema */
static int
snap_views(Session *s, Arena *a, bool schemas, const char *ns, Snap *sn, int *cap, floe_error *err)
{
	char **names;
	ViewDef **defs = NULL;
	int n, k, f;

	if (schemas)
		TRY(views_list(s, ns, a, &names, &defs, &n, err));
	else
		TRY(catalog_list_views(s->engine->catalog, ns, a, &names, &n, err));
	for (k = 0; k < n; k++) {
		TabInfo *t;
		if (sn->ntabs == *cap) {
			sn->tabs = arena_realloc(a, sn->tabs, sizeof(TabInfo) * (size_t)*cap,
						 sizeof(TabInfo) * (size_t)*cap * 2);
			*cap *= 2;
		}
		t = &sn->tabs[sn->ntabs++];
		memset(t, 0, sizeof *t);
		t->kind = 'v';
		t->ns = ns;
		t->name = names[k];
		t->oid = pgcatalog_table_oid(ns, names[k]);
		t->nsoid = ns_oid(ns);
		if (defs) {
			IcebergSchema *sc = ARENA_NEW(a, IcebergSchema);
			t->view = defs[k];
			sc->nfields = defs[k]->ncols;
			sc->fields = ARENA_ARRAY(a, IcebergField, sc->nfields + 1);
			for (f = 0; f < sc->nfields; f++) {
				sc->fields[f].id = f + 1;
				sc->fields[f].name = defs[k]->names[f];
				sc->fields[f].type = defs[k]->types[f];
			}
			t->schema = sc;
		}
	}
	return FLOE_OK;
}

static int
snap_take(Session *s, Arena *a, bool schemas, Snap *sn, floe_error *err)
{
	Catalog *cat = s->engine->catalog;
	char **nss;
	int nns, i, k, cap = 16;

	memset(sn, 0, sizeof *sn);
	sn->user = session_user_name(s);
	sn->db = database_name(s);
	TRY(catalog_list_namespaces(cat, a, &nss, &nns, err));
	sn->ns = nss;
	sn->nns = nns;
	sn->tabs = ARENA_ARRAY(a, TabInfo, cap);
	for (i = 0; i < nns; i++) {
		char **names;
		int nt;
		TRY(catalog_list_tables(cat, nss[i], a, &names, &nt, err));
		for (k = 0; k < nt; k++) {
			TabInfo *t;
			if (sn->ntabs == cap) {
				sn->tabs = arena_realloc(a, sn->tabs, sizeof(TabInfo) * (size_t)cap,
							 sizeof(TabInfo) * (size_t)cap * 2);
				cap *= 2;
			}
			t = &sn->tabs[sn->ntabs++];
			memset(t, 0, sizeof *t);
			t->kind = 'r';
			t->ns = nss[i];
			t->name = names[k];
			t->oid = pgcatalog_table_oid(nss[i], names[k]);
			t->nsoid = ns_oid(nss[i]);
			if (schemas) {
				Table *tb;
				TRY(txn_table_load(s, nss[i], names[k], a, &tb, err));
				t->schema = metadata_current_schema(tb->md);
				t->nidx = indexes_of(tb->md, a, &t->idx);
				t->nchk = check_list(tb->md, a, &t->chk);
			}
		}
		TRY(snap_views(s, a, schemas, nss[i], sn, &cap, err));
	}
	return FLOE_OK;
}

/* oids: append o (cap grows) */
static void
push_oid(Arena *a, int64_t **oids, int *n, int *cap, int64_t o)
{
	if (*n == *cap) {
		int nc = *cap ? *cap * 2 : 64;
		*oids = arena_realloc(a, *oids, sizeof(int64_t) * (size_t)*cap, sizeof(int64_t) * (size_t)nc);
		*cap = nc;
	}
	(*oids)[(*n)++] = o;
}

/* name was listed already (an earlier schema of the path shadows it) */
static bool
seen(char ***names, int *nseen, Arena *a, const char *name)
{
	int i;
	for (i = 0; i < *nseen; i++)
		if (!strcmp((*names)[i], name))
			return true;
	*names = arena_realloc(a, *names, sizeof(char *) * (size_t)*nseen,
			       sizeof(char *) * (size_t)(*nseen + 1));
	(*names)[(*nseen)++] = (char *)name;
	return false;
}

/* The oids pg_table_is_visible says yes to: pg_catalog's relations (and
 * information_schema's when the path names it), then each schema of the
 * search_path's tables, views, sequences and indexes whose name no earlier
 * schema of the path has. */
int
pgcatalog_visible_oids(Session *s, Arena *a, int64_t **oids, int *n, floe_error *err)
{
	int np, j, i, cap = 0, nseen = 0;
	const char *const *path = search_path_list(s, &np);
	char **seen_names = NULL;

	*n = 0;
	*oids = NULL;
	for (i = 0; i < NRELS; i++)
		if (rels[i].ns == NS_PG || search_path_has(s, "information_schema"))
			push_oid(a, oids, n, &cap, sys_oid(&rels[i]));
	for (j = 0; j < np; j++) {
		const char *ns = path[j];
		char **names, **vn, **sn;
		int nt = 0, nv = 0, nsq = 0, k;
		int64_t *so;
		bool exists = false;
		if (!strcmp(ns, "pg_catalog") || !strcmp(ns, "information_schema"))
			continue;
		ns = arena_strdup(a, ns);
		TRY(catalog_namespace_exists(s->engine->catalog, ns, &exists, err));
		if (!exists)
			continue;
		TRY(catalog_list_tables(s->engine->catalog, ns, a, &names, &nt, err));
		TRY(catalog_list_views(s->engine->catalog, ns, a, &vn, &nv, err));
		TRY(seq_visible_oids(s, ns, a, &sn, &so, &nsq, err));   /* sequence.c */
		for (i = 0; i < nsq; i++)
			if (!seen(&seen_names, &nseen, a, sn[i]))
				push_oid(a, oids, n, &cap, so[i]);
		for (i = 0; i < nv; i++)
			if (!seen(&seen_names, &nseen, a, vn[i]))
				push_oid(a, oids, n, &cap, pgcatalog_table_oid(ns, vn[i]));
		for (i = 0; i < nt; i++) {
			/* the table and its indexes: primary keys' and recorded ones
			 * (indexes.c) */
			Table *tb;
			TabInfo ti;
			IndexInfo *ix;
			int nx;
			floe_error skip;
			if (seen(&seen_names, &nseen, a, names[i]))
				continue;
			push_oid(a, oids, n, &cap, pgcatalog_table_oid(ns, names[i]));
			if (txn_table_load(s, ns, names[i], a, &tb, &skip) != FLOE_OK)
				continue;   /* an unreadable table has no visible indexes */
			nx = indexes_of(tb->md, a, &ix);
			memset(&ti, 0, sizeof ti);
			ti.ns = ns;
			ti.name = names[i];
			if (metadata_current_schema(tb->md)->nidentifier > 0)
				push_oid(a, oids, n, &cap, pk_index_oid(&ti));
			for (k = 0; k < nx; k++)
				push_oid(a, oids, n, &cap, idx_oid(&ti, &ix[k]));
		}
	}
	return FLOE_OK;
}

/* ---- pg_catalog ---------------------------------------------------------- */

/* the views among the system relations (PostgreSQL's relkind 'v') */
static bool
is_view(const RelDef *d)
{
	static const char *const views[] = {
		"pg_roles", "pg_user", "pg_settings", "pg_tables", "pg_views", "pg_matviews",
		"pg_indexes", "pg_sequences", "pg_policies", "pg_rules", "pg_locks", "pg_stats",
		"pg_available_extensions", "pg_cursors", "pg_prepared_statements",
		"pg_prepared_xacts", "pg_file_settings", "pg_hba_file_rules", "pg_group",
		"pg_shadow", "pg_timezone_abbrevs", "pg_replication_slots", "pg_user_mappings",
		"pg_publication_tables", "pg_triggers",
	};
	size_t i;
	if (d->ns == NS_INFO || !strncmp(d->name, "pg_stat", 7))
		return true;
	for (i = 0; i < sizeof views / sizeof views[0]; i++)
		if (!strcmp(views[i], d->name))
			return true;
	return false;
}

/* a system relation's columns, as floe types them */
static int
sys_columns(const RelDef *d, Arena *a, char ***names, SqlType **types)
{
	Rel r;
	constrel_init(&r, a, d->spec);
	*names = r.names;
	*types = r.types;
	return r.ncols;
}

static void
fill_sys_class(Rel *r)
{
	int i;
	for (i = 0; i < NRELS; i++) {
		const RelDef *d = &rels[i];
		char **names;
		SqlType *types;
		bool view = is_view(d);
		Value *row = constrel_row(r);
		put_i(r, row, "oid", sys_oid(d));
		put_s(r, row, "relname", d->name);
		put_i(r, row, "relnamespace", d->ns == NS_PG ? OID_PG_CATALOG : OID_INFO_SCHEMA);
		put_i(r, row, "reltype", 0);
		put_i(r, row, "reloftype", 0);
		put_i(r, row, "relowner", OID_ROLE);
		put_i(r, row, "relam", view ? 0 : 2);
		put_i(r, row, "relfilenode", view ? 0 : sys_oid(d));
		put_i(r, row, "reltablespace", 0);
		put_i(r, row, "relpages", 0);
		put_i(r, row, "reltuples", -1);
		put_i(r, row, "relallvisible", 0);
		put_i(r, row, "reltoastrelid", 0);
		put_b(r, row, "relhasindex", false);
		put_b(r, row, "relisshared", false);
		put_c(r, row, "relpersistence", 'p');
		put_c(r, row, "relkind", view ? 'v' : 'r');
		put_i(r, row, "relnatts", sys_columns(d, r->a, &names, &types));
		put_i(r, row, "relchecks", 0);
		put_b(r, row, "relhasrules", view);
		put_b(r, row, "relhastriggers", false);
		put_b(r, row, "relhassubclass", false);
		put_b(r, row, "relrowsecurity", false);
		put_b(r, row, "relforcerowsecurity", false);
		put_b(r, row, "relispopulated", true);
		put_c(r, row, "relreplident", view ? 'n' : 'd');
		put_b(r, row, "relispartition", false);
		put_i(r, row, "relrewrite", 0);
	}
}

static void fill_column_rows(Rel *r, int64_t relid, int nfields, char **names, const SqlType *types,
			     const bool *notnull, const bool *hasdef);

static void
fill_sys_attribute(Rel *r)
{
	int i;
	for (i = 0; i < NRELS; i++) {
		char **names;
		SqlType *types;
		int n = sys_columns(&rels[i], r->a, &names, &types);
		fill_column_rows(r, sys_oid(&rels[i]), n, names, types, NULL, NULL);
	}
}

static void
fill_namespace(Rel *r, const Snap *sn)
{
	static const char *const sys[] = { "pg_catalog", "information_schema" };
	int i;
	for (i = 0; i < 2 + sn->nns; i++) {
		const char *ns = i < 2 ? sys[i] : sn->ns[i - 2];
		Value *row;
		if (i >= 2 && (!strcmp(ns, "pg_catalog") || !strcmp(ns, "information_schema")))
			continue;
		row = constrel_row(r);
		put_i(r, row, "oid", ns_oid(ns));
		put_s(r, row, "nspname", ns);
		put_i(r, row, "nspowner", OID_ROLE);
	}
}

static void fill_sys_class(Rel *r);

static void
fill_class(Rel *r, const Snap *sn)
{
	int i;
	for (i = 0; i < sn->ntabs; i++) {
		const TabInfo *t = &sn->tabs[i];
		Value *row = constrel_row(r);
		put_i(r, row, "oid", t->oid);
		put_s(r, row, "relname", t->name);
		put_i(r, row, "relnamespace", t->nsoid);
		put_i(r, row, "reltype", 0);
		put_i(r, row, "reloftype", 0);
		put_i(r, row, "relowner", OID_ROLE);
		put_i(r, row, "relam", t->kind == 'v' ? 0 : 2);
		put_i(r, row, "relfilenode", t->kind == 'v' ? 0 : t->oid);
		put_i(r, row, "reltablespace", 0);
		put_i(r, row, "relpages", 0);
		put_i(r, row, "reltuples", -1);
		put_i(r, row, "relallvisible", 0);
		put_i(r, row, "reltoastrelid", 0);
		put_b(r, row, "relhasindex", (t->schema && t->schema->nidentifier > 0) || t->nidx > 0);
		put_b(r, row, "relisshared", false);
		put_c(r, row, "relpersistence", temp_is_temp_ns(t->ns) ? 't' : 'p');
		put_c(r, row, "relkind", t->kind);
		put_i(r, row, "relnatts", t->schema ? t->schema->nfields : 0);
		put_i(r, row, "relchecks", t->nchk);
		put_b(r, row, "relhasrules", t->kind == 'v');
		put_b(r, row, "relhastriggers", false);
		put_b(r, row, "relhassubclass", false);
		put_b(r, row, "relrowsecurity", false);
		put_b(r, row, "relforcerowsecurity", false);
		put_b(r, row, "relispopulated", true);
		put_c(r, row, "relreplident", t->kind == 'v' ? 'n' : 'd');
		put_b(r, row, "relispartition", false);
		put_i(r, row, "relrewrite", 0);
		put_s(r, row, "relfrozenxid", "0");
		put_s(r, row, "relminmxid", "0");
	}
	for (i = 0; i < sn->ntabs; i++) {
		/* the primary key's index */
		const TabInfo *t = &sn->tabs[i];
		Value *row;
		if (!t->schema || t->schema->nidentifier == 0)
			continue;
		row = constrel_row(r);
		put_i(r, row, "oid", pk_index_oid(t));
		put_s(r, row, "relname", pk_name(r->a, t));
		put_i(r, row, "relnamespace", t->nsoid);
		put_i(r, row, "reltype", 0);
		put_i(r, row, "reloftype", 0);
		put_i(r, row, "relowner", OID_ROLE);
		put_i(r, row, "relam", 403);
		put_i(r, row, "relfilenode", pk_index_oid(t));
		put_i(r, row, "reltablespace", 0);
		put_i(r, row, "relpages", 1);
		put_i(r, row, "reltuples", -1);
		put_i(r, row, "relallvisible", 0);
		put_i(r, row, "reltoastrelid", 0);
		put_b(r, row, "relhasindex", false);
		put_b(r, row, "relisshared", false);
		put_c(r, row, "relpersistence", temp_is_temp_ns(t->ns) ? 't' : 'p');
		put_c(r, row, "relkind", 'i');
		put_i(r, row, "relnatts", t->schema->nidentifier);
		put_i(r, row, "relchecks", 0);
		put_b(r, row, "relhasrules", false);
		put_b(r, row, "relhastriggers", false);
		put_b(r, row, "relhassubclass", false);
		put_b(r, row, "relrowsecurity", false);
		put_b(r, row, "relforcerowsecurity", false);
		put_b(r, row, "relispopulated", true);
		put_c(r, row, "relreplident", 'n');
		put_b(r, row, "relispartition", false);
		put_i(r, row, "relrewrite", 0);
		put_s(r, row, "relfrozenxid", "0");
		put_s(r, row, "relminmxid", "0");
	}
	for (i = 0; i < sn->ntabs; i++) {
		const TabInfo *t = &sn->tabs[i];
		int k;
		for (k = 0; k < t->nidx; k++) {
			Value *row = constrel_row(r);
			put_i(r, row, "oid", idx_oid(t, &t->idx[k]));
			put_s(r, row, "relname", t->idx[k].name);
			put_i(r, row, "relnamespace", t->nsoid);
			put_i(r, row, "reltype", 0);
			put_i(r, row, "reloftype", 0);
			put_i(r, row, "relowner", OID_ROLE);
			put_i(r, row, "relam", idx_am(&t->idx[k]));
			put_i(r, row, "relfilenode", idx_oid(t, &t->idx[k]));
			put_i(r, row, "reltablespace", 0);
			put_i(r, row, "relpages", 1);
			put_i(r, row, "reltuples", -1);
			put_i(r, row, "relallvisible", 0);
			put_i(r, row, "reltoastrelid", 0);
			put_b(r, row, "relhasindex", false);
			put_b(r, row, "relisshared", false);
			put_c(r, row, "relpersistence", temp_is_temp_ns(t->ns) ? 't' : 'p');
			put_c(r, row, "relkind", 'i');
			put_i(r, row, "relnatts", t->idx[k].ncols);
			put_i(r, row, "relchecks", 0);
			put_b(r, row, "relhasrules", false);
			put_b(r, row, "relhastriggers", false);
			put_b(r, row, "relhassubclass", false);
			put_b(r, row, "relrowsecurity", false);
			put_b(r, row, "relforcerowsecurity", false);
			put_b(r, row, "relispopulated", true);
			put_c(r, row, "relreplident", 'n');
			put_b(r, row, "relispartition", false);
			put_i(r, row, "relrewrite", 0);
			put_s(r, row, "relfrozenxid", "0");
			put_s(r, row, "relminmxid", "0");
		}
	}
	fill_sys_class(r);
}

/* pg_index and pg_constraint: each table's primary key (Iceberg
 * identifier fields, in key order) */
static void
fill_index(Rel *r, const Snap *sn)
{
	int i, k;
	for (i = 0; i < sn->ntabs; i++) {
		const TabInfo *t = &sn->tabs[i];
		int n = t->schema ? t->schema->nidentifier : 0, *cols;
		int64_t *key, *opt, *coll, *cls;
		Value *row;
		if (n == 0)
			continue;
		cols = ARENA_ARRAY(r->a, int, n);
		pk_columns(t->schema, cols);
		key = ARENA_ARRAY(r->a, int64_t, n);
		opt = ARENA_ARRAY(r->a, int64_t, n);
		coll = ARENA_ARRAY(r->a, int64_t, n);
		cls = ARENA_ARRAY(r->a, int64_t, n);
		for (k = 0; k < n; k++) {
			SqlType ty = t->schema->fields[cols[k]].type;
			const struct PgType *pt = pgtype_of(pgcatalog_type_oid(ty));
			key[k] = cols[k] + 1;
			opt[k] = 0;
			coll[k] = pt ? pt->collation : 0;
			cls[k] = 0;
		}
		row = constrel_row(r);
		put_i(r, row, "indexrelid", pk_index_oid(t));
		put_i(r, row, "indrelid", t->oid);
		put_i(r, row, "indnatts", n);
		put_i(r, row, "indnkeyatts", n);
		put_b(r, row, "indisunique", true);
		put_b(r, row, "indnullsnotdistinct", false);
		put_b(r, row, "indisprimary", true);
		put_b(r, row, "indisexclusion", false);
		put_b(r, row, "indimmediate", true);
		put_b(r, row, "indisclustered", false);
		put_b(r, row, "indisvalid", true);
		put_b(r, row, "indcheckxmin", false);
		put_b(r, row, "indisready", true);
		put_b(r, row, "indislive", true);
		put_b(r, row, "indisreplident", false);
		put_arr(r, row, "indkey", key, n);
		put_arr(r, row, "indcollation", coll, n);
		put_arr(r, row, "indclass", cls, n);
		put_arr(r, row, "indoption", opt, n);
	}
	for (i = 0; i < sn->ntabs; i++) {
		const TabInfo *t = &sn->tabs[i];
		int x;
		for (x = 0; x < t->nidx; x++) {
			const IndexInfo *ix = &t->idx[x];
			int64_t *key = ARENA_ARRAY(r->a, int64_t, ix->ncols + 1);
			int64_t *zero = ARENA_ARRAY(r->a, int64_t, ix->ncols + 1);
			Value *row;
			for (k = 0; k < ix->ncols; k++) {
				key[k] = idx_col(t, ix, k);
				zero[k] = 0;
			}
			row = constrel_row(r);
			put_i(r, row, "indexrelid", idx_oid(t, ix));
			put_i(r, row, "indrelid", t->oid);
			put_i(r, row, "indnatts", ix->ncols);
			put_i(r, row, "indnkeyatts", ix->ncols);
			put_b(r, row, "indisunique", false);
			put_b(r, row, "indnullsnotdistinct", false);
			put_b(r, row, "indisprimary", false);
			put_b(r, row, "indisexclusion", false);
			put_b(r, row, "indimmediate", true);
			put_b(r, row, "indisclustered", false);
			put_b(r, row, "indisvalid", true);
			put_b(r, row, "indcheckxmin", false);
			put_b(r, row, "indisready", true);
			put_b(r, row, "indislive", true);
			put_b(r, row, "indisreplident", false);
			put_arr(r, row, "indkey", key, ix->ncols);
			put_arr(r, row, "indcollation", zero, ix->ncols);
			put_arr(r, row, "indclass", zero, ix->ncols);
			put_arr(r, row, "indoption", zero, ix->ncols);
		}
	}
}

/* pg_indexes: the primary keys' indexes and the recorded ones */
static void
fill_indexes_view(Rel *r, const Snap *sn, Session *s)
{
	int i, k, n;
	int64_t *oids;
	int *cols;
	const char **defs;
	floe_error e;
	if (pgcatalog_pkey_defs(s, r->a, false, &oids, &cols, &defs, &n, &e) != FLOE_OK)
		n = 0;
	for (i = 0; i < sn->ntabs; i++) {
		const TabInfo *t = &sn->tabs[i];
		Value *row;
		if (t->schema && t->schema->nidentifier > 0) {
			for (k = 0; k < n; k++)
				if (oids[k] == pk_index_oid(t) && cols[k] == 0) {
					row = constrel_row(r);
					put_s(r, row, "schemaname", t->ns);
					put_s(r, row, "tablename", t->name);
					put_s(r, row, "indexname", pk_name(r->a, t));
					put_s(r, row, "indexdef", defs[k]);
				}
		}
		for (k = 0; k < t->nidx; k++) {
			row = constrel_row(r);
			put_s(r, row, "schemaname", t->ns);
			put_s(r, row, "tablename", t->name);
			put_s(r, row, "indexname", t->idx[k].name);
			put_s(r, row, "indexdef", idx_def(r->a, t, &t->idx[k]));
		}
	}
}

static void
fill_constraint(Rel *r, const Snap *sn)
{
	int i, k;
	for (i = 0; i < sn->ntabs; i++) {
		const TabInfo *t = &sn->tabs[i];
		int n = t->schema ? t->schema->nidentifier : 0, *cols;
		int64_t *key;
		Value *row;
		if (n == 0)
			continue;
		cols = ARENA_ARRAY(r->a, int, n);
		pk_columns(t->schema, cols);
		key = ARENA_ARRAY(r->a, int64_t, n);
		for (k = 0; k < n; k++)
			key[k] = cols[k] + 1;
		row = constrel_row(r);
		put_i(r, row, "oid", pk_constraint_oid(t));
		put_s(r, row, "conname", pk_name(r->a, t));
		put_i(r, row, "connamespace", t->nsoid);
		put_c(r, row, "contype", 'p');
		put_b(r, row, "condeferrable", false);
		put_b(r, row, "condeferred", false);
		put_b(r, row, "convalidated", true);
		put_i(r, row, "conrelid", t->oid);
		put_i(r, row, "contypid", 0);
		put_i(r, row, "conindid", pk_index_oid(t));
		put_i(r, row, "conparentid", 0);
		put_i(r, row, "confrelid", 0);
		put_c(r, row, "confupdtype", ' ');
		put_c(r, row, "confdeltype", ' ');
		put_c(r, row, "confmatchtype", ' ');
		put_b(r, row, "conislocal", true);
		put_i(r, row, "coninhcount", 0);
		put_b(r, row, "connoinherit", true);
		put_arr(r, row, "conkey", key, n);
	}
	for (i = 0; i < sn->ntabs; i++) {   /* CHECK constraints (check.h) */
		const TabInfo *t = &sn->tabs[i];
		for (k = 0; k < t->nchk; k++) {
			int64_t *cols;
			int nc = check_def_columns(t->schema, &t->chk[k], r->a, &cols);
			Value *row = constrel_row(r);
			put_i(r, row, "oid", chk_oid(r->a, t, &t->chk[k]));
			put_s(r, row, "conname", t->chk[k].name);
			put_i(r, row, "connamespace", t->nsoid);
			put_c(r, row, "contype", 'c');
			put_b(r, row, "condeferrable", false);
			put_b(r, row, "condeferred", false);
			put_b(r, row, "convalidated", t->chk[k].valid);
			put_i(r, row, "conrelid", t->oid);
			put_i(r, row, "contypid", 0);
			put_i(r, row, "conindid", 0);
			put_i(r, row, "conparentid", 0);
			put_i(r, row, "confrelid", 0);
			put_c(r, row, "confupdtype", ' ');
			put_c(r, row, "confdeltype", ' ');
			put_c(r, row, "confmatchtype", ' ');
			put_b(r, row, "conislocal", true);
			put_i(r, row, "coninhcount", 0);
			put_b(r, row, "connoinherit", t->chk[k].noinherit);
			if (nc > 0)
				put_arr(r, row, "conkey", cols, nc);
		}
	}
}

/* information_schema.check_constraints and the CHECK rows of
 * table_constraints */
static void
fill_is_checks(Rel *r, const Snap *sn, bool table_constraints)
{
	int i, k;
	for (i = 0; i < sn->ntabs; i++) {
		const TabInfo *t = &sn->tabs[i];
		for (k = 0; k < t->nchk; k++) {
			Value *row = constrel_row(r);
			put_s(r, row, "constraint_catalog", sn->db);
			put_s(r, row, "constraint_schema", t->ns);
			put_s(r, row, "constraint_name", t->chk[k].name);
			if (!table_constraints) {
				/* PostgreSQL: pg_get_constraintdef's text after "CHECK " */
				put_s(r, row, "check_clause", check_def_text(t->schema, &t->chk[k], false, r->a) + 6);
				continue;
			}
			put_s(r, row, "table_catalog", sn->db);
			put_s(r, row, "table_schema", t->ns);
			put_s(r, row, "table_name", t->name);
			put_s(r, row, "constraint_type", "CHECK");
			put_s(r, row, "is_deferrable", "NO");
			put_s(r, row, "initially_deferred", "NO");
			put_s(r, row, "enforced", "YES");
		}
	}
}

static void
fill_column_rows(Rel *r, int64_t relid, int nfields, char **names, const SqlType *types,
		 const bool *notnull, const bool *hasdef)
{
	int k;
	for (k = 0; k < nfields; k++) {
		uint32_t toid = pgcatalog_type_oid(types[k]);
		const struct PgType *pt = pgtype_of(toid);
		Value *row = constrel_row(r);
		put_i(r, row, "attrelid", relid);
		put_s(r, row, "attname", names[k]);
		put_i(r, row, "atttypid", toid);
		put_i(r, row, "attstattarget", -1);
		put_i(r, row, "attlen", pt ? pt->len : -1);
		put_i(r, row, "attnum", k + 1);
		put_i(r, row, "attndims", 0);
		put_i(r, row, "attcacheoff", -1);
		put_i(r, row, "atttypmod", pgcatalog_typmod(types[k]));
		put_b(r, row, "attbyval", pt ? pt->byval : false);
		put_c(r, row, "attalign", pt ? pt->align : 'i');
		put_c(r, row, "attstorage", pt ? pt->storage : 'x');
		put_s(r, row, "attcompression", "");
		put_b(r, row, "attnotnull", notnull && notnull[k]);
		put_b(r, row, "atthasdef", hasdef && hasdef[k]);
		put_b(r, row, "atthasmissing", false);
		put_s(r, row, "attidentity", "");
		put_s(r, row, "attgenerated", "");
		put_b(r, row, "attisdropped", false);
		put_b(r, row, "attislocal", true);
		put_i(r, row, "attinhcount", 0);
		put_i(r, row, "attcollation", pt ? pt->collation : 0);
	}
}

static void
fill_attribute(Rel *r, const Snap *sn)
{
	int i, k;
	for (i = 0; i < sn->ntabs; i++) {
		const TabInfo *t = &sn->tabs[i];
		int nf = t->schema ? t->schema->nfields : 0;
		char **names = ARENA_ARRAY(r->a, char *, nf + 1);
		SqlType *types = ARENA_ARRAY(r->a, SqlType, nf + 1);
		bool *nn = ARENA_ARRAY(r->a, bool, nf + 1), *hd = ARENA_ARRAY(r->a, bool, nf + 1);
		for (k = 0; k < nf; k++) {
			const IcebergField *f = &t->schema->fields[k];
			names[k] = f->name;
			types[k] = f->nested ? type_make(TYPE_TEXT) : f->type;
			nn[k] = f->required;
			hd[k] = f->default_sql != NULL;
		}
		fill_column_rows(r, t->oid, nf, names, types, nn, hd);
		if (t->schema && t->schema->nidentifier > 0) {
			/* the primary key index's columns */
			int n = t->schema->nidentifier, *cols = ARENA_ARRAY(r->a, int, n);
			char **kn = ARENA_ARRAY(r->a, char *, n);
			SqlType *kt = ARENA_ARRAY(r->a, SqlType, n);
			pk_columns(t->schema, cols);
			for (k = 0; k < n; k++) {
				kn[k] = names[cols[k]];
				kt[k] = types[cols[k]];
			}
			fill_column_rows(r, pk_index_oid(t), n, kn, kt, NULL, NULL);
		}
		for (k = 0; k < t->nidx; k++) {
			const IndexInfo *ix = &t->idx[k];
			char **kn = ARENA_ARRAY(r->a, char *, ix->ncols + 1);
			SqlType *kt = ARENA_ARRAY(r->a, SqlType, ix->ncols + 1);
			int c;
			for (c = 0; c < ix->ncols; c++) {
				int at = idx_col(t, ix, c);
				kn[c] = at ? names[at - 1] : (char *)"expr";
				kt[c] = at ? types[at - 1] : type_make(TYPE_TEXT);
			}
			fill_column_rows(r, idx_oid(t, ix), ix->ncols, kn, kt, NULL, NULL);
		}
	}
	fill_sys_attribute(r);
}

static void
fill_attrdef(Rel *r, const Snap *sn)
{
	int i, k;
	for (i = 0; i < sn->ntabs; i++) {
		const TabInfo *t = &sn->tabs[i];
		for (k = 0; t->schema && k < t->schema->nfields; k++) {
			const IcebergField *f = &t->schema->fields[k];
			Value *row;
			char num[16];
			if (!f->default_sql)
				continue;
			snprintf(num, sizeof num, "%d", k + 1);
			row = constrel_row(r);
			put_i(r, row, "oid", hash_oid(t->ns, arena_sprintf(r->a, "%s.%s", t->name, num)));
			put_i(r, row, "adrelid", t->oid);
			put_i(r, row, "adnum", k + 1);
			put_s(r, row, "adbin", f->default_sql);
		}
	}
}

static void
fill_type(Rel *r)
{
	int i;
	for (i = 0; i < NPGTYPES; i++) {
		const struct PgType *t = &pgtypes[i];
		Value *row = constrel_row(r);
		put_i(r, row, "oid", t->oid);
		put_s(r, row, "typname", t->name);
		put_i(r, row, "typnamespace", OID_PG_CATALOG);
		put_i(r, row, "typowner", OID_ROLE);
		put_i(r, row, "typlen", t->len);
		put_b(r, row, "typbyval", t->byval);
		put_c(r, row, "typtype", t->category == 'P' ? 'p' : 'b');
		put_c(r, row, "typcategory", t->category);
		put_b(r, row, "typispreferred", t->preferred);
		put_b(r, row, "typisdefined", true);
		put_c(r, row, "typdelim", ',');
		put_i(r, row, "typrelid", 0);
		put_s(r, row, "typsubscript", !t->elem ? "-" : t->len == -1 ? "array_subscript_handler" :
		      "raw_array_subscript_handler");
		put_i(r, row, "typelem", t->elem);
		put_i(r, row, "typarray", t->array);
		put_s(r, row, "typinput", arena_sprintf(r->a, "%sin", t->name));
		put_s(r, row, "typoutput", arena_sprintf(r->a, "%sout", t->name));
		put_s(r, row, "typreceive", arena_sprintf(r->a, "%srecv", t->name));
		put_s(r, row, "typsend", arena_sprintf(r->a, "%ssend", t->name));
		put_s(r, row, "typmodin", "-");
		put_s(r, row, "typmodout", "-");
		put_s(r, row, "typanalyze", "-");
		put_c(r, row, "typalign", t->align);
		put_c(r, row, "typstorage", t->storage);
		put_b(r, row, "typnotnull", false);
		put_i(r, row, "typbasetype", 0);
		put_i(r, row, "typtypmod", -1);
		put_i(r, row, "typndims", 0);
		put_i(r, row, "typcollation", t->collation);
	}
}

/* pg_type rows of the enums and domains (types/udt.h), each with its
 * array type (OID + 1, "_name") */
static void
fill_user_types(Rel *r)
{
	int i, n = udt_count();
	for (i = 0; i < n; i++) {
		const Udt *u = udt_at(i);
		const struct PgType *bt = u->kind == 'd' ? pgtype_of(pgcatalog_type_oid(u->base)) : NULL;
		int k;
		for (k = 0; k < 2; k++) {
			Value *row = constrel_row(r);
			bool arr = k == 1;
			put_i(r, row, "oid", u->oid + (uint32_t)k);
			put_s(r, row, "typname", arr ? arena_sprintf(r->a, "_%s", u->name) : u->name);
			put_i(r, row, "typnamespace", ns_oid(u->ns));
			put_i(r, row, "typowner", OID_ROLE);
			put_i(r, row, "typlen", arr ? -1 : u->kind == 'e' ? 4 : bt ? bt->len : -1);
			put_b(r, row, "typbyval", !arr && (u->kind == 'e' || (bt && bt->byval)));
			put_c(r, row, "typtype", arr ? 'b' : u->kind);
			put_c(r, row, "typcategory", arr ? 'A' : u->kind == 'e' ? 'E' : bt ? bt->category : 'U');
			put_b(r, row, "typispreferred", false);
			put_b(r, row, "typisdefined", true);
			put_c(r, row, "typdelim", ',');
			put_i(r, row, "typrelid", 0);
			put_s(r, row, "typsubscript", arr ? "array_subscript_handler" : "-");
			put_i(r, row, "typelem", arr ? u->oid : 0);
			put_i(r, row, "typarray", arr ? 0 : u->oid + 1);
			put_s(r, row, "typinput", arr ? "array_in" : u->kind == 'e' ? "enum_in" : "domain_in");
			put_s(r, row, "typoutput", arr ? "array_out" : u->kind == 'e' ? "enum_out" :
			      arena_sprintf(r->a, "%sout", bt ? bt->name : "text"));
			put_s(r, row, "typreceive", arr ? "array_recv" : u->kind == 'e' ? "enum_recv" : "domain_recv");
			put_s(r, row, "typsend", arr ? "array_send" : u->kind == 'e' ? "enum_send" :
			      arena_sprintf(r->a, "%ssend", bt ? bt->name : "text"));
			put_s(r, row, "typmodin", "-");
			put_s(r, row, "typmodout", "-");
			put_s(r, row, "typanalyze", arr ? "array_typanalyze" : "-");
			put_c(r, row, "typalign", arr || u->kind == 'e' ? 'i' : bt ? bt->align : 'i');
			put_c(r, row, "typstorage", arr ? 'x' : u->kind == 'e' ? 'p' : bt ? bt->storage : 'x');
			put_b(r, row, "typnotnull", !arr && u->kind == 'd' && u->notnull);
			put_i(r, row, "typbasetype", !arr && u->kind == 'd' ? pgcatalog_type_oid(u->base) : 0);
			put_i(r, row, "typtypmod", !arr && u->kind == 'd' ? pgcatalog_typmod(u->base) : -1);
			put_i(r, row, "typndims", 0);
			put_i(r, row, "typcollation", !arr && u->kind == 'd' && bt ? bt->collation : 0);
			if (!arr && u->kind == 'd')
				put_s(r, row, "typdefault", u->default_sql);
		}
	}
}

/* pg_enum: one row per label, oids a hash of the type and the label */
static void
fill_enum(Rel *r)
{
	int i, k, n = udt_count();
	for (i = 0; i < n; i++) {
		const Udt *u = udt_at(i);
		for (k = 0; u->kind == 'e' && k < u->nlabels; k++) {
			Value *row = constrel_row(r);
			put_i(r, row, "oid", tagged_oid("enum", arena_sprintf(r->a, "%u", u->oid), u->labels[k]));
			put_i(r, row, "enumtypid", u->oid);
			cell(r, row, "enumsortorder")->is_null = false;
			cell(r, row, "enumsortorder")->u.f = u->orders[k];
			put_s(r, row, "enumlabel", u->labels[k]);
		}
	}
}

static void describe_type(Rel *r, Value *row, SqlType t, uint32_t toid);

/* information_schema.domains */
static void
fill_is_domains(Rel *r, const Snap *sn)
{
	int i, n = udt_count();
	for (i = 0; i < n; i++) {
		const Udt *u = udt_at(i);
		const struct PgType *bt;
		Value *row;
		if (u->kind != 'd')
			continue;
		bt = pgtype_of(pgcatalog_type_oid(u->base));
		row = constrel_row(r);
		put_s(r, row, "domain_catalog", sn->db);
		put_s(r, row, "domain_schema", u->ns);
		put_s(r, row, "domain_name", u->name);
		describe_type(r, row, u->base, pgcatalog_type_oid(u->base));
		put_s(r, row, "domain_default", u->default_sql);
		put_s(r, row, "udt_catalog", sn->db);
		put_s(r, row, "udt_schema", "pg_catalog");
		put_s(r, row, "udt_name", bt ? bt->name : "text");
		put_s(r, row, "dtd_identifier", "1");
	}
}

static void
fill_database(Rel *r, const Snap *sn)
{
	Value *row = constrel_row(r);
	put_i(r, row, "oid", OID_DATABASE);
	put_s(r, row, "datname", sn->db);
	put_i(r, row, "datdba", OID_ROLE);
	put_i(r, row, "encoding", 6);
	put_c(r, row, "datlocprovider", 'c');
	put_b(r, row, "datistemplate", false);
	put_b(r, row, "datallowconn", true);
	put_i(r, row, "datconnlimit", -1);
	put_s(r, row, "datfrozenxid", "0");
	put_s(r, row, "datminmxid", "1");
	put_i(r, row, "dattablespace", 1663);
	put_s(r, row, "datcollate", "C");
	put_s(r, row, "datctype", "C");
}

/* pg_roles, pg_authid, pg_user, pg_auth_members: the roles of the roles
 * file (sql/acl.c; before any role was created, the session's user as the
 * one superuser), passwords never shown (pg_authid.rolpassword NULL) */
static int
fill_role(Rel *r, Session *s, Arena *a, const char *rel, floe_error *err)
{
	AclRoleRow *roles;
	AclMemberRow *mem;
	int n, nm, i;

	TRY(acl_list_roles(s, a, &roles, &n, &mem, &nm, err));
	if (!strcmp(rel, "pg_auth_members")) {
		for (i = 0; i < nm; i++) {
			Value *row = constrel_row(r);
			put_i(r, row, "roleid", mem[i].roleid);
			put_i(r, row, "member", mem[i].member);
			put_i(r, row, "grantor", OID_ROLE);
			put_b(r, row, "admin_option", false);
		}
		return FLOE_OK;
	}
	for (i = 0; i < n; i++) {
		Value *row;
		bool su = roles[i].super;
		if (!strcmp(rel, "pg_user") && !roles[i].login)
			continue;
		row = constrel_row(r);
		if (!strcmp(rel, "pg_user")) {
			put_s(r, row, "usename", roles[i].name);
			put_i(r, row, "usesysid", roles[i].oid);
			put_b(r, row, "usecreatedb", su);
			put_b(r, row, "usesuper", su);
			put_b(r, row, "userepl", su);
			put_b(r, row, "usebypassrls", su);
			put_s(r, row, "passwd", "********");
			continue;
		}
		put_i(r, row, "oid", roles[i].oid);
		put_s(r, row, "rolname", roles[i].name);
		put_b(r, row, "rolsuper", su);
		put_b(r, row, "rolinherit", true);
		put_b(r, row, "rolcreaterole", su);
		put_b(r, row, "rolcreatedb", su);
		put_b(r, row, "rolcanlogin", roles[i].login);
		put_b(r, row, "rolreplication", su);
		put_b(r, row, "rolbypassrls", su);
		put_i(r, row, "rolconnlimit", -1);
		if (!strcmp(rel, "pg_roles"))
			put_s(r, row, "rolpassword", "********");
	}
	return FLOE_OK;
}

/* information_schema.table_privileges / role_table_grants (sql/acl.c):
 * per table the owner's privileges and the grants the role may see */
/* information_schema shows a role only the relations it holds some
 * privilege on (PostgreSQL's views filter each row by has_table_privilege
 * / has_column_privilege / pg_has_role): drop the others from the snap. */
static int
snap_visible(Session *s, Arena *a, Snap *sn, floe_error *err)
{
	int i, n = 0;
	for (i = 0; i < sn->ntabs; i++) {
		bool vis;
		TRY(acl_table_visible(s, sn->tabs[i].ns, sn->tabs[i].name, a, &vis, err));
		if (vis)
			sn->tabs[n++] = sn->tabs[i];
	}
	sn->ntabs = n;
	return FLOE_OK;
}

static int
fill_is_privileges(Rel *r, Session *s, Arena *a, const Snap *sn, floe_error *err)
{
	static const struct {
		unsigned bit;
		const char *name;
	} kinds[] = {
		{ ROLE_PRIV_INSERT, "INSERT" }, { ROLE_PRIV_SELECT, "SELECT" },
		{ ROLE_PRIV_UPDATE, "UPDATE" }, { ROLE_PRIV_DELETE, "DELETE" },
		{ ROLE_PRIV_TRUNCATE, "TRUNCATE" }, { ROLE_PRIV_REFERENCES, "REFERENCES" },
		{ ROLE_PRIV_TRIGGER, "TRIGGER" },
	};
	int t, g, k, n;
	for (t = 0; t < sn->ntabs; t++) {
		AclGrantRow *rows;
		TRY(acl_table_grants(s, a, sn->tabs[t].ns, sn->tabs[t].name, &rows, &n, err));
		for (g = 0; g < n; g++)
			for (k = 0; k < (int)(sizeof kinds / sizeof kinds[0]); k++) {
				Value *row;
				if (!(rows[g].privs & kinds[k].bit))
					continue;
				row = constrel_row(r);
				put_s(r, row, "grantor", rows[g].grantor);
				put_s(r, row, "grantee", rows[g].grantee);
				put_s(r, row, "table_catalog", sn->db);
				put_s(r, row, "table_schema", sn->tabs[t].ns);
				put_s(r, row, "table_name", sn->tabs[t].name);
				put_s(r, row, "privilege_type", kinds[k].name);
				put_s(r, row, "is_grantable", rows[g].owner ? "YES" : "NO");
				put_s(r, row, "with_hierarchy", kinds[k].bit == ROLE_PRIV_SELECT ? "YES" : "NO");
			}
	}
	return FLOE_OK;
}

/* the settings of pg_settings and current_setting(): key is the name SET
 * and SHOW use (session_setting); NULL key: a fixed value */
static const struct Setting {
	const char *name, *key, *fixed, *category, *context, *vartype;
} settings[] = {
	{ "application_name", "application_name", "", "Reporting and Logging / What to Log", "user", "string" },
	{ "block_size", NULL, "8192", "Preset Options", "internal", "integer" },
	{ "client_encoding", "client_encoding", "UTF8", "Client Connection Defaults / Locale and Formatting", "user", "string" },
	{ "DateStyle", "datestyle", "ISO, MDY", "Client Connection Defaults / Locale and Formatting", "user", "string" },
	{ "default_transaction_isolation", NULL, "read committed", "Client Connection Defaults / Statement Behavior", "user", "enum" },
	{ "default_transaction_read_only", NULL, "off", "Client Connection Defaults / Statement Behavior", "user", "bool" },
	{ "extra_float_digits", "extra_float_digits", "1", "Client Connection Defaults / Locale and Formatting", "user", "integer" },
	{ "integer_datetimes", NULL, "on", "Preset Options", "internal", "bool" },
	{ "IntervalStyle", "intervalstyle", "postgres", "Client Connection Defaults / Locale and Formatting", "user", "enum" },
	{ "is_superuser", NULL, "on", "Preset Options", "internal", "bool" },
	{ "lc_collate", NULL, "C", "Preset Options", "internal", "string" },
	{ "lc_ctype", NULL, "C", "Preset Options", "internal", "string" },
	{ "max_identifier_length", NULL, "63", "Preset Options", "internal", "integer" },
	{ "max_index_keys", NULL, "32", "Preset Options", "internal", "integer" },
	{ "search_path", "search_path", SEARCH_PATH_DEFAULT, "Client Connection Defaults / Statement Behavior", "user", "string" },
	{ "server_encoding", "server_encoding", "UTF8", "Preset Options", "internal", "string" },
	{ "server_version", "server_version", "15.0", "Preset Options", "internal", "string" },
	{ "server_version_num", NULL, "150000", "Preset Options", "internal", "integer" },
	{ "standard_conforming_strings", "standard_conforming_strings", "on", "Version and Platform Compatibility / Previous PostgreSQL Versions", "user", "bool" },
	{ "statement_timeout", "statement_timeout", "0", "Client Connection Defaults / Statement Behavior", "user", "integer" },
	{ "TimeZone", "timezone", "UTC", "Client Connection Defaults / Locale and Formatting", "user", "string" },
	{ "transaction_isolation", "transaction_isolation", "read committed", "Client Connection Defaults / Statement Behavior", "user", "enum" },
	{ "transaction_read_only", NULL, "off", "Client Connection Defaults / Statement Behavior", "user", "bool" },
};
#define NSETTINGS ((int)(sizeof settings / sizeof settings[0]))

static const char *
setting_value(Session *s, const struct Setting *st)
{
	const char *v = st->key ? session_setting(s, st->key) : NULL;
	return v && (v[0] || !strcmp(st->name, "application_name") || !strcmp(st->name, "search_path"))
		? v : st->fixed;
}

/*
 * current_setting(name): the value of setting `name` (case-insensitive),
 * *found false when floe has no such setting.  names/values: every
 * setting, for current_setting over a column.
 */
const char *
pgcatalog_setting(Session *s, const char *name, bool *found)
{
	int i;
	*found = false;
	for (i = 0; i < NSETTINGS; i++)
		if (!strcasecmp(settings[i].name, name)) {
			*found = true;
			return setting_value(s, &settings[i]);
		}
	if (!strcasecmp(name, "session_authorization")) {
		*found = true;
		return pgcatalog_user(s);
	}
	{
		/* any other setting PostgreSQL has: what SHOW prints */
		static _Thread_local char buf[256];
		const char *v = session_show(s, name, buf, sizeof buf);
		if (v) {
			*found = true;
			return v;
		}
	}
	return NULL;
}

int
pgcatalog_settings(Session *s, Arena *a, const char ***names, const char ***values)
{
	int i;
	*names = ARENA_ARRAY(a, const char *, NSETTINGS);
	*values = ARENA_ARRAY(a, const char *, NSETTINGS);
	for (i = 0; i < NSETTINGS; i++) {
		(*names)[i] = settings[i].name;
		(*values)[i] = setting_value(s, &settings[i]);
	}
	return NSETTINGS;
}

static void
fill_settings(Rel *r, Session *s)
{
	int i;
	for (i = 0; i < NSETTINGS; i++) {
		const char *v = setting_value(s, &settings[i]);
		Value *row = constrel_row(r);
		char ms[32];
		if (!strcmp(settings[i].name, "statement_timeout")) {
			/* pg_settings.setting is in the unit column's unit */
			snprintf(ms, sizeof ms, "%lld", (long long)(engine_duration_us(v) / 1000));
			v = ms;
		}
		put_s(r, row, "name", settings[i].name);
		put_s(r, row, "setting", v);
		put_s(r, row, "unit", !strcmp(settings[i].name, "statement_timeout") ? "ms" : NULL);
		put_s(r, row, "category", settings[i].category);
		put_s(r, row, "short_desc", "");
		put_s(r, row, "context", settings[i].context);
		put_s(r, row, "vartype", settings[i].vartype);
		put_s(r, row, "source", settings[i].key ? "session" : "default");
		put_s(r, row, "boot_val", settings[i].fixed);
		put_s(r, row, "reset_val", v);
		put_b(r, row, "pending_restart", false);
	}
}

/* pg_stat_activity: this session only (floe does not list the others) */
static void
fill_activity(Rel *r, Session *s)
{
	Value *row = constrel_row(r);
	const char *app = session_setting(s, "application_name");
	put_i(r, row, "datid", OID_DATABASE);
	put_s(r, row, "datname", pgcatalog_database(s));
	put_i(r, row, "pid", (int64_t)getpid());
	put_i(r, row, "usesysid", OID_ROLE);
	put_s(r, row, "usename", pgcatalog_user(s));
	put_s(r, row, "application_name", app ? app : "");
	put_s(r, row, "state", "active");
	put_s(r, row, "backend_type", "client backend");
}

static void
fill_am(Rel *r)
{
	Value *row = constrel_row(r);
	put_i(r, row, "oid", 2);
	put_s(r, row, "amname", "heap");
	put_s(r, row, "amhandler", "heap_tableam_handler");
	put_c(r, row, "amtype", 't');
	row = constrel_row(r);
	put_i(r, row, "oid", 403);
	put_s(r, row, "amname", "btree");
	put_s(r, row, "amhandler", "bthandler");
	put_c(r, row, "amtype", 'i');
}

static void
fill_collation(Rel *r)
{
	static const struct { int oid; const char *name; char prov; } c[] = {
		{ 100, "default", 'd' }, { 950, "C", 'c' }, { 951, "POSIX", 'c' },
	};
	int i;
	for (i = 0; i < 3; i++) {
		Value *row = constrel_row(r);
		put_i(r, row, "oid", c[i].oid);
		put_s(r, row, "collname", c[i].name);
		put_i(r, row, "collnamespace", OID_PG_CATALOG);
		put_i(r, row, "collowner", OID_ROLE);
		put_c(r, row, "collprovider", c[i].prov);
		put_b(r, row, "collisdeterministic", true);
		put_i(r, row, "collencoding", -1);
		if (c[i].prov == 'c') {
			put_s(r, row, "collcollate", c[i].name);
			put_s(r, row, "collctype", c[i].name);
		}
	}
}

static void
fill_tablespace(Rel *r)
{
	Value *row = constrel_row(r);
	put_i(r, row, "oid", 1663);
	put_s(r, row, "spcname", "pg_default");
	put_i(r, row, "spcowner", OID_ROLE);
	row = constrel_row(r);
	put_i(r, row, "oid", 1664);
	put_s(r, row, "spcname", "pg_global");
	put_i(r, row, "spcowner", OID_ROLE);
}

static void
fill_tables_view(Rel *r, const Snap *sn)
{
	int i;
	for (i = 0; i < sn->ntabs; i++) {
		Value *row;
		if (sn->tabs[i].kind != 'r')
			continue;
		row = constrel_row(r);
		put_s(r, row, "schemaname", sn->tabs[i].ns);
		put_s(r, row, "tablename", sn->tabs[i].name);
		put_s(r, row, "tableowner", sn->user);
		put_b(r, row, "hasindexes", false);
		put_b(r, row, "hasrules", false);
		put_b(r, row, "hastriggers", false);
		put_b(r, row, "rowsecurity", false);
	}
}

/* ---- information_schema -------------------------------------------------- */

static void
fill_schemata(Rel *r, const Snap *sn)
{
	static const char *const sys[] = { "pg_catalog", "information_schema" };
	int i;
	for (i = 0; i < 2 + sn->nns; i++) {
		const char *ns = i < 2 ? sys[i] : sn->ns[i - 2];
		Value *row;
		if (i >= 2 && (!strcmp(ns, "pg_catalog") || !strcmp(ns, "information_schema")))
			continue;
		row = constrel_row(r);
		put_s(r, row, "catalog_name", sn->db);
		put_s(r, row, "schema_name", ns);
		put_s(r, row, "schema_owner", sn->user);
	}
}

static void
fill_is_tables(Rel *r, const Snap *sn)
{
	int i;
	for (i = 0; i < sn->ntabs; i++) {
		Value *row = constrel_row(r);
		put_s(r, row, "table_catalog", sn->db);
		put_s(r, row, "table_schema", sn->tabs[i].ns);
		put_s(r, row, "table_name", sn->tabs[i].name);
		put_s(r, row, "table_type", sn->tabs[i].kind == 'v' ? "VIEW" :
		      temp_is_temp_ns(sn->tabs[i].ns) ? "LOCAL TEMPORARY" : "BASE TABLE");
		put_s(r, row, "is_insertable_into", sn->tabs[i].kind == 'v' ? "NO" : "YES");
		put_s(r, row, "is_typed", "NO");
	}
}

/* pg_views and information_schema.views (views.c's definitions) */
static void
fill_views(Rel *r, const Snap *sn, bool info)
{
	int i;
	for (i = 0; i < sn->ntabs; i++) {
		const TabInfo *t = &sn->tabs[i];
		Value *row;
		if (t->kind != 'v')
			continue;
		row = constrel_row(r);
		if (info) {
			put_s(r, row, "table_catalog", sn->db);
			put_s(r, row, "table_schema", t->ns);
			put_s(r, row, "table_name", t->name);
			put_s(r, row, "view_definition", t->view ? arena_sprintf(r->a, " %s;", t->view->sql) : NULL);
			put_s(r, row, "check_option", "NONE");
			put_s(r, row, "is_updatable", "NO");
			put_s(r, row, "is_insertable_into", "NO");
			put_s(r, row, "is_trigger_updatable", "NO");
			put_s(r, row, "is_trigger_deletable", "NO");
			put_s(r, row, "is_trigger_insertable_into", "NO");
		} else {
			put_s(r, row, "schemaname", t->ns);
			put_s(r, row, "viewname", t->name);
			put_s(r, row, "viewowner", sn->user);
			put_s(r, row, "definition", t->view ? arena_sprintf(r->a, " %s;", t->view->sql) : NULL);
		}
	}
}

/* information_schema.columns' description of a type (PostgreSQL's
 * _pg_char_max_length, _pg_numeric_precision, ... for floe's types) */
static void
describe_type(Rel *r, Value *row, SqlType t, uint32_t toid)
{
	char buf[96];
	const struct PgType *pt = pgtype_of(toid);
	const char *dt = func_pgcatalog_format_type(toid, -1, buf, sizeof buf);

	uint32_t elem = type_array_elem_oid(toid);

	if (elem) {
		/* PostgreSQL: data_type ARRAY, udt_name the array type's name
		 * (its element's with a leading underscore) */
		const struct PgType *ep = pgtype_of(elem);
		put_s(r, row, "data_type", "ARRAY");
		put_s(r, row, "udt_name", arena_sprintf(r->a, "_%s", ep ? ep->name : "text"));
		return;
	}
	put_s(r, row, "data_type", arena_strdup(r->a, !strcmp(dt, "bpchar") ? "character" : dt));
	put_s(r, row, "udt_name", pt ? pt->name : "text");
	switch (t.id) {
	case TYPE_TEXT:
		if (t.text_kind != TEXT_PLAIN && t.typmod >= 0) {
			put_i(r, row, "character_maximum_length", t.typmod);
			put_i(r, row, "character_octet_length", (int64_t)t.typmod * 4);
		} else {
			put_i(r, row, "character_octet_length", 1073741824);
		}
		break;
	case TYPE_INT16: case TYPE_INT32: case TYPE_INT64:
		put_i(r, row, "numeric_precision", t.id == TYPE_INT16 ? 16 : t.id == TYPE_INT32 ? 32 : 64);
		put_i(r, row, "numeric_precision_radix", 2);
		put_i(r, row, "numeric_scale", 0);
		break;
	case TYPE_FLOAT32: case TYPE_FLOAT64:
		put_i(r, row, "numeric_precision", t.id == TYPE_FLOAT32 ? 24 : 53);
		put_i(r, row, "numeric_precision_radix", 2);
		break;
	case TYPE_DECIMAL:
		put_i(r, row, "numeric_precision_radix", 10);
		if (t.precision > 0) {
			put_i(r, row, "numeric_precision", t.precision);
			put_i(r, row, "numeric_scale", t.scale);
		}
		break;
	case TYPE_DATE:
		put_i(r, row, "datetime_precision", 0);
		break;
	case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: case TYPE_INTERVAL:
		put_i(r, row, "datetime_precision", 6);
		break;
	default:
		break;
	}
}

static void
fill_is_columns(Rel *r, const Snap *sn)
{
	int i, k;
	for (i = 0; i < sn->ntabs; i++) {
		const TabInfo *t = &sn->tabs[i];
		for (k = 0; t->schema && k < t->schema->nfields; k++) {
			const IcebergField *f = &t->schema->fields[k];
			SqlType ty = f->nested ? type_make(TYPE_TEXT) : f->type;
			Value *row = constrel_row(r);
			put_s(r, row, "table_catalog", sn->db);
			put_s(r, row, "table_schema", t->ns);
			put_s(r, row, "table_name", t->name);
			put_s(r, row, "column_name", f->name);
			put_i(r, row, "ordinal_position", k + 1);
			put_s(r, row, "column_default", f->default_sql);
			put_s(r, row, "is_nullable", f->required ? "NO" : "YES");
			if (ty.udt && ty.id != TYPE_ARRAY) {   /* an enum, a domain (types/udt.h) */
				const Udt *u = udt_get(ty.udt);
				SqlType base = type_domain_base(ty);
				if (type_is_enum(ty)) {
					put_s(r, row, "data_type", "USER-DEFINED");
					put_s(r, row, "udt_name", u ? u->name : "???");
				} else {
					describe_type(r, row, base, pgcatalog_type_oid(base));
					put_s(r, row, "domain_catalog", sn->db);
					put_s(r, row, "domain_schema", u ? u->ns : NULL);
					put_s(r, row, "domain_name", u ? u->name : NULL);
				}
				put_s(r, row, "udt_catalog", sn->db);
				put_s(r, row, "udt_schema", type_is_enum(ty) && u ? u->ns : "pg_catalog");
			} else {
				describe_type(r, row, ty, pgcatalog_type_oid(ty));
				put_s(r, row, "udt_catalog", sn->db);
				put_s(r, row, "udt_schema", "pg_catalog");
			}
			put_s(r, row, "dtd_identifier", arena_sprintf(r->a, "%d", k + 1));
			put_s(r, row, "is_self_referencing", "NO");
			put_s(r, row, "is_identity", "NO");
			put_s(r, row, "identity_cycle", "NO");
			put_s(r, row, "is_generated", "NEVER");
			put_s(r, row, "is_updatable", t->kind == 'v' ? "NO" : "YES");
		}
	}
}

/* information_schema.table_constraints / key_column_usage: primary keys
 * (PostgreSQL also lists NOT NULL columns as CHECK constraints there;
 * floe does not) */
static void
fill_is_pkeys(Rel *r, const Snap *sn, bool per_column)
{
	int i, k;
	for (i = 0; i < sn->ntabs; i++) {
		const TabInfo *t = &sn->tabs[i];
		int n = t->schema ? t->schema->nidentifier : 0, *cols;
		if (n == 0)
			continue;
		cols = ARENA_ARRAY(r->a, int, n);
		pk_columns(t->schema, cols);
		for (k = 0; k < (per_column ? n : 1); k++) {
			Value *row = constrel_row(r);
			put_s(r, row, "constraint_catalog", sn->db);
			put_s(r, row, "constraint_schema", t->ns);
			put_s(r, row, "constraint_name", pk_name(r->a, t));
			put_s(r, row, "table_catalog", sn->db);
			put_s(r, row, "table_schema", t->ns);
			put_s(r, row, "table_name", t->name);
			if (per_column) {
				put_s(r, row, "column_name", t->schema->fields[cols[k]].name);
				put_i(r, row, "ordinal_position", k + 1);
			} else {
				put_s(r, row, "constraint_type", "PRIMARY KEY");
				put_s(r, row, "is_deferrable", "NO");
				put_s(r, row, "initially_deferred", "NO");
				put_s(r, row, "enforced", "YES");
			}
		}
	}
}

/* pg_get_indexdef / pg_get_constraintdef of every primary key, for
 * bind_expr.c (which binds those functions over the oids it is given) */
int
pgcatalog_pkey_defs(Session *s, Arena *a, bool pretty, int64_t **oids, int **cols_out,
		    const char ***defs, int *n, floe_error *err)
{
	Snap sn;
	int i, k, cap = 1;
	TRY(snap_take(s, a, true, &sn, err));
	for (i = 0; i < sn.ntabs; i++)
		cap += sn.tabs[i].schema ? 2 + sn.tabs[i].schema->nidentifier : 0;
	*oids = ARENA_ARRAY(a, int64_t, cap);
	*cols_out = ARENA_ARRAY(a, int, cap);
	*defs = ARENA_ARRAY(a, const char *, cap);
	*n = 0;
	for (i = 0; i < sn.ntabs; i++) {
		const TabInfo *t = &sn.tabs[i];
		int nk = t->schema ? t->schema->nidentifier : 0, *cols;
		char *list;
		size_t len = 0, sz = 1;
		if (nk == 0)
			continue;
		cols = ARENA_ARRAY(a, int, nk);
		pk_columns(t->schema, cols);
		for (k = 0; k < nk; k++)
			sz += 2 * strlen(t->schema->fields[cols[k]].name) + 5;
		list = arena_alloc(a, sz);
		list[0] = 0;
		for (k = 0; k < nk; k++)
			len += (size_t)sprintf(list + len, "%s%s", k ? ", " : "",
					       quote_ident(a, t->schema->fields[cols[k]].name));
		for (k = 0; k < nk; k++) {
			/* pg_get_indexdef(index, k + 1, ...): the key column */
			(*oids)[*n] = pk_index_oid(t);
			(*cols_out)[*n] = k + 1;
			(*defs)[(*n)++] = quote_ident(a, t->schema->fields[cols[k]].name);
		}
		(*oids)[*n] = pk_index_oid(t);
		(*cols_out)[*n] = 0;
		(*defs)[(*n)++] = arena_sprintf(a, "CREATE UNIQUE INDEX %s ON %s%s%s USING btree (%s)",
						quote_ident(a, pk_name(a, t)),
						pretty && !strcmp(t->ns, session_schema(s)) ? "" : quote_ident(a, t->ns),
						pretty && !strcmp(t->ns, session_schema(s)) ? "" : ".",
						quote_ident(a, t->name), list);
		(*oids)[*n] = pk_constraint_oid(t);
		(*cols_out)[*n] = 0;
		(*defs)[(*n)++] = arena_sprintf(a, "PRIMARY KEY (%s)", list);
	}
	for (i = 0; i < sn.ntabs; i++) {
		/* CHECK constraints (check.h) */
		const TabInfo *t = &sn.tabs[i];
		for (k = 0; k < t->nchk; k++) {
			*oids = arena_realloc(a, *oids, sizeof(int64_t) * (size_t)cap,
					      sizeof(int64_t) * (size_t)(cap + 1));
			*cols_out = arena_realloc(a, *cols_out, sizeof(int) * (size_t)cap,
						  sizeof(int) * (size_t)(cap + 1));
			*defs = arena_realloc(a, *defs, sizeof(char *) * (size_t)cap,
					      sizeof(char *) * (size_t)(cap + 1));
			cap++;
			(*oids)[*n] = chk_oid(a, t, &t->chk[k]);
			(*cols_out)[*n] = 0;
			(*defs)[(*n)++] = check_def_text(t->schema, &t->chk[k], pretty, a);
		}
	}
	for (i = 0; i < sn.ntabs; i++) {
		/* recorded indexes (indexes.c): the whole definition, and the
		 * name of each plain key column */
		const TabInfo *t = &sn.tabs[i];
		int x;
		for (x = 0; x < t->nidx; x++) {
			const IndexInfo *ix = &t->idx[x];
			*oids = arena_realloc(a, *oids, sizeof(int64_t) * (size_t)cap,
					      sizeof(int64_t) * (size_t)(cap + ix->ncols + 1));
			*cols_out = arena_realloc(a, *cols_out, sizeof(int) * (size_t)cap,
						  sizeof(int) * (size_t)(cap + ix->ncols + 1));
			*defs = arena_realloc(a, *defs, sizeof(char *) * (size_t)cap,
					      sizeof(char *) * (size_t)(cap + ix->ncols + 1));
			cap += ix->ncols + 1;
			for (k = 0; k < ix->ncols; k++) {
				int at = idx_col(t, ix, k);
				if (!at)
					continue;
				(*oids)[*n] = idx_oid(t, ix);
				(*cols_out)[*n] = k + 1;
				(*defs)[(*n)++] = quote_ident(a, t->schema->fields[at - 1].name);
			}
			(*oids)[*n] = idx_oid(t, ix);
			(*cols_out)[*n] = 0;
			(*defs)[(*n)++] = idx_def(a, t, ix);
		}
	}
	return FLOE_OK;
}

/* pg_get_viewdef of every view (views.c's stored query, ending in ';' as
 * PostgreSQL's does), for bind_expr.c; cols[i] is 0 */
int
pgcatalog_view_defs(Session *s, Arena *a, int64_t **oids, int **cols, const char ***defs, int *n,
		    floe_error *err)
{
	Snap sn;
	int i;
	TRY(snap_take(s, a, true, &sn, err));
	*oids = ARENA_ARRAY(a, int64_t, sn.ntabs + 1);
	*cols = ARENA_ARRAY(a, int, sn.ntabs + 1);
	*defs = ARENA_ARRAY(a, const char *, sn.ntabs + 1);
	*n = 0;
	for (i = 0; i < sn.ntabs; i++) {
		if (sn.tabs[i].kind != 'v' || !sn.tabs[i].view)
			continue;
		(*oids)[*n] = sn.tabs[i].oid;
		(*cols)[*n] = 0;
		(*defs)[(*n)++] = arena_sprintf(a, " %s;", sn.tabs[i].view->sql);
	}
	return FLOE_OK;
}

/* ---- lookup -------------------------------------------------------------- */

/* one identifier of a qualified name: "Quoted" kept, else lower-cased */
static const char *
ident(Arena *a, const char *p, size_t n)
{
	char *o;
	size_t i, k = 0;
	if (n >= 2 && p[0] == '"' && p[n - 1] == '"') {
		o = arena_alloc(a, n);
		for (i = 1; i + 1 < n; i++) {
			if (p[i] == '"' && i + 2 < n && p[i + 1] == '"')
				i++;
			o[k++] = p[i];
		}
		o[k] = 0;
		return o;
	}
	o = arena_strndup(a, p, n);
	for (i = 0; i < n; i++)
		if (o[i] >= 'A' && o[i] <= 'Z')
			o[i] = (char)(o[i] - 'A' + 'a');
	return o;
}

static const RelDef *find_rel(Session *s, const char *schema, const char *name);

static int
table_in(Session *s, Arena *a, const char *ns, const char *name, bool *found, floe_error *err)
{
	char **names;
	int n, i;
	bool exists = false;
	*found = false;
	TRY(catalog_namespace_exists(s->engine->catalog, ns, &exists, err));
	if (!exists)
		return FLOE_OK;
	TRY(catalog_list_tables(s->engine->catalog, ns, a, &names, &n, err));
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			*found = true;
	if (!*found)
		*found = views_exists(s, ns, name);
	return FLOE_OK;
}

/* 'name'::regclass and 'schema.name'::regclass: the table's oid */
int
pgcatalog_regclass(Session *s, Arena *a, const char *text, int64_t *oid, floe_error *err)
{
	const char *dot = NULL, *p, *ns = NULL, *name;
	bool q = false, found = false;
	const RelDef *d;

	for (p = text; *p; p++) {
		if (*p == '"')
			q = !q;
		else if (*p == '.' && !q && !dot)
			dot = p;
	}
	if (dot) {
		ns = ident(a, text, (size_t)(dot - text));
		name = ident(a, dot + 1, strlen(dot + 1));
	} else {
		name = ident(a, text, strlen(text));
	}
	if ((d = find_rel(s, ns, name))) {
		*oid = sys_oid(d);
		return FLOE_OK;
	}
	TRY(table_in(s, a, ns ? ns : search_path_lookup(s, name), name, &found, err));
	if (!found && strlen(name) > 5 && !strcmp(name + strlen(name) - 5, "_pkey")) {
		/* a primary key's index: <table>_pkey */
		const char *tn = arena_strndup(a, name, strlen(name) - 5);
		TRY(table_in(s, a, ns ? ns : search_path_lookup(s, tn), tn, &found, err));
		if (found) {
			Table *t;
			TRY(txn_table_load(s, ns ? ns : search_path_lookup(s, tn), tn, a, &t, err));
			if (metadata_current_schema(t->md)->nidentifier > 0) {
				*oid = tagged_oid("index", ns ? ns : search_path_lookup(s, tn), tn);
				return FLOE_OK;
			}
			found = false;
		}
	}
	if (!found) {
		CatalogSeq sq;   /* a sequence (sequence.c) */
		TRY(seq_lookup(s, ns ? ns : search_path_lookup(s, name), name, a, &sq, &found, err));
	}
	if (!found)
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", text);
	*oid = pgcatalog_table_oid(ns ? ns : search_path_lookup(s, name), name);
	return FLOE_OK;
}

/* 'name'::regtype for the types of pg_type (and their SQL spellings) */
int
pgcatalog_regtype(const char *text, int64_t *oid, floe_error *err)
{
	static const struct { const char *name; int oid; } alias[] = {
		{ "boolean", 16 }, { "smallint", 21 }, { "integer", 23 }, { "int", 23 },
		{ "bigint", 20 }, { "real", 700 }, { "double precision", 701 },
		{ "decimal", 1700 }, { "character varying", 1043 }, { "character", 1042 },
		{ "char", 1042 }, { "time without time zone", 1083 },
		{ "timestamp without time zone", 1114 }, { "timestamp with time zone", 1184 },
		{ "\"char\"", 18 },
	};
	char buf[64];
	size_t i, n = strlen(text);
	const char *par = strchr(text, '(');
	if (par)
		n = (size_t)(par - text);   /* varchar(10)::regtype is varchar */
	while (n > 0 && text[n - 1] == ' ')
		n--;
	if (n >= sizeof buf)
		n = sizeof buf - 1;
	for (i = 0; i < n; i++)
		buf[i] = (char)(text[i] >= 'A' && text[i] <= 'Z' ? text[i] - 'A' + 'a' : text[i]);
	buf[n] = 0;
	if (!strncmp(buf, "pg_catalog.", 11))
		memmove(buf, buf + 11, strlen(buf + 11) + 1);
	for (i = 0; i < sizeof alias / sizeof alias[0]; i++)
		if (!strcmp(buf, alias[i].name)) {
			*oid = alias[i].oid;
			return FLOE_OK;
		}
	for (i = 0; i < (size_t)NPGTYPES; i++)
		if (!strcmp(buf, pgtypes[i].name)) {
			*oid = pgtypes[i].oid;
			return FLOE_OK;
		}
	{   /* an enum, a domain (schema.name or name) */
		const char *dot = strchr(buf, '.');
		char nsb[64];
		const Udt *u;
		if (dot && (size_t)(dot - buf) < sizeof nsb) {
			memcpy(nsb, buf, (size_t)(dot - buf));
			nsb[dot - buf] = 0;
			u = udt_find(nsb, dot + 1);
		} else {
			u = udt_find(NULL, buf);
		}
		if (u) {
			*oid = u->oid;
			return FLOE_OK;
		}
	}
	return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "type \"%s\" does not exist", text);
}

static const RelDef *
find_rel(Session *s, const char *schema, const char *name)
{
	int i;
	for (i = 0; i < NRELS; i++) {
		const RelDef *d = &rels[i];
		const char *ns = d->ns == NS_PG ? "pg_catalog" : "information_schema";
		const char *w;
		if (strcmp(d->name, name) != 0)
			continue;
		if (schema) {
			if (!strcmp(schema, ns))
				return d;
			continue;
		}
		/* unqualified: PostgreSQL's order (search_path.h) */
		w = search_path_find(s, name);
		if (w && !strcmp(w, ns))
			return d;
	}
	return NULL;
}

/* Is (schema, name) one of this file's relations?  (bind_expr.c: the
 * correlated lookups it binds itself are those over catalog relations) */
bool
pgcatalog_is_relation(Session *s, const char *schema, const char *name)
{
	return find_rel(s, schema && schema[0] ? schema : NULL, name) != NULL;
}

static bool
is(const RelDef *d, const char *name)
{
	return !strcmp(d->name, name);
}

int
pgcatalog_relation(Session *s, ExecCtx *ctx, const char *schema, const char *name, Arena *a,
		   bool *found, int *ncols, char ***names, SqlType **types, Operator **op,
		   floe_error *err)
{
	const RelDef *d;
	Rel r;
	Snap sn;

	*found = false;
	if (schema && !schema[0])
		schema = NULL;   /* protobuf-c's unset string */
	d = find_rel(s, schema, name);
	if (!d)
		return FLOE_OK;
	constrel_init(&r, a, d->spec);
	if (d->ns == NS_PG) {
		bool cols = is(d, "pg_attribute") || is(d, "pg_attrdef") || is(d, "pg_class") ||
			    is(d, "pg_index") || is(d, "pg_constraint") || is(d, "pg_indexes");
		bool cat = cols || is(d, "pg_namespace") || is(d, "pg_tables") ||
			   is(d, "pg_database") || is(d, "pg_roles") || is(d, "pg_user") ||
			   is(d, "pg_authid") || is(d, "pg_views");
		if (cat)
			TRY(snap_take(s, a, cols || is(d, "pg_views"), &sn, err));
		if (is(d, "pg_namespace"))
			fill_namespace(&r, &sn);
		else if (is(d, "pg_class"))
			fill_class(&r, &sn);
		else if (is(d, "pg_attribute"))
			fill_attribute(&r, &sn);
		else if (is(d, "pg_attrdef"))
			fill_attrdef(&r, &sn);
		else if (is(d, "pg_type")) {
			fill_type(&r);
			fill_user_types(&r);
		} else if (is(d, "pg_enum"))
			fill_enum(&r);
		else if (is(d, "pg_database"))
			fill_database(&r, &sn);
		else if (is(d, "pg_roles") || is(d, "pg_user") || is(d, "pg_authid") ||
			 is(d, "pg_auth_members"))
			TRY(fill_role(&r, s, a, d->name, err));
		else if (is(d, "pg_settings"))
			fill_settings(&r, s);
		else if (is(d, "pg_stat_activity"))
			fill_activity(&r, s);
		else if (is(d, "pg_am"))
			fill_am(&r);
		else if (is(d, "pg_collation"))
			fill_collation(&r);
		else if (is(d, "pg_tablespace"))
			fill_tablespace(&r);
		else if (is(d, "pg_tables"))
			fill_tables_view(&r, &sn);
		else if (is(d, "pg_views"))
			fill_views(&r, &sn, false);
		else if (is(d, "pg_index"))
			fill_index(&r, &sn);
		else if (is(d, "pg_indexes"))
			fill_indexes_view(&r, &sn, s);
		else if (is(d, "pg_constraint"))
			fill_constraint(&r, &sn);
		/* the others are empty: floe has no such objects */
	} else {
		bool cols = is(d, "columns") || is(d, "table_constraints") || is(d, "key_column_usage") ||
			    is(d, "check_constraints");
		bool privs = is(d, "table_privileges") || is(d, "role_table_grants");
		if (is(d, "schemata") || is(d, "tables") || cols || privs || is(d, "views") ||
		    is(d, "domains"))
			TRY(snap_take(s, a, cols || is(d, "views"), &sn, err));
		if (is(d, "tables") || cols || privs || is(d, "views"))
			TRY(snap_visible(s, a, &sn, err));
		if (privs)
			TRY(fill_is_privileges(&r, s, a, &sn, err));
		if (is(d, "table_constraints") || is(d, "key_column_usage"))
			fill_is_pkeys(&r, &sn, is(d, "key_column_usage"));
		if (is(d, "table_constraints") || is(d, "check_constraints"))
			fill_is_checks(&r, &sn, is(d, "table_constraints"));
		if (is(d, "schemata"))
			fill_schemata(&r, &sn);
		else if (is(d, "tables"))
			fill_is_tables(&r, &sn);
		else if (is(d, "columns"))
			fill_is_columns(&r, &sn);
		else if (is(d, "views"))
			fill_views(&r, &sn, true);
		else if (is(d, "domains"))
			fill_is_domains(&r, &sn);
	}
	TRY(seq_catalog_rows(s, &r, d->ns == NS_PG, d->name, a, err));   /* sequence.c */
	*found = true;
	*ncols = r.ncols;
	*names = r.names;
	*types = r.types;
	*op = constrel_op(ctx, &r, "PgCatalog");
	return FLOE_OK;
}
