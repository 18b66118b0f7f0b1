/*
 * test_session_env.c — func/session_env.h: a statement's session state is
 * captured and applied as one value (what parallel workers do), and the
 * privilege functions read the session's privilege services through
 * FuncCtx.env (func/ links without sql/: the Makefile's layer_objs).
 */
#include "func_testutil.h"
#include "func/session_env.h"
#include "types/text.h"

/* the tables a fake session may read: "open" only; role 42 is "alice" */
static int calls;

static int
fake_table(void *session, int kind, const char *user, int64_t user_oid, const char *table,
	   int64_t table_oid, const char *column, int64_t attnum, const char *priv, bool *out, bool *null,
	   floe_error *err)
{
	(void)user;
	(void)user_oid;
	(void)table_oid;
	(void)column;
	(void)attnum;
	(void)err;
	assert_string_equal((const char *)session, "session-1");
	assert_int_equal(kind, SESSION_PRIV_TABLE);
	assert_string_equal(priv, "SELECT");
	calls++;
	*out = table && !strcmp(table, "open");
	*null = false;
	return FLOE_OK;
}

static int
fake_schema(void *session, const char *user, int64_t user_oid, const char *schema, int64_t schema_oid,
	    const char *priv, bool *out, bool *null, floe_error *err)
{
	(void)session;
	(void)user;
	(void)user_oid;
	(void)schema_oid;
	(void)priv;
	*out = false;
	*null = false;
	return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "schema \"%s\" does not exist", schema);
}

static const char *
fake_role(void *session, int64_t oid, char *buf, size_t n)
{
	(void)session;
	if (oid != 42)
		return NULL;
	snprintf(buf, n, "alice");
	return buf;
}

static const SessionPrivileges fake = { .relation_privilege = fake_table, .schema_privilege = fake_schema,
					.role_name = fake_role };

static int
call_env(const SessionEnv *env, const char *name, Vector *args, int nargs, uint32_t count, Vector *out)
{
	SqlType types[3], cast_to[3], ret;
	const ScalarFunc *f;
	FuncCtx ctx = { T_arena, &T_err, env };

	for (int i = 0; i < nargs; i++)
		types[i] = args[i].type;
	floe_error_clear(&T_err);
	assert_int_equal(func_resolve_scalar(name, types, nargs, &f, &ret, cast_to, &T_err), FLOE_OK);
	vector_init(out, ret, T_arena, count);
	return f->kernel(&ctx, args, nargs, count, out);
}

static void
test_session_env__privileges_through_ctx(void **state)
{
	static const char *const tables[] = { "open", "secret" };
	SessionEnv env;
	Vector args[2], out;
	int64_t oids[2] = { 42, 7 };

	(void)state;
	memset(&env, 0, sizeof env);
	env.session = "session-1";
	env.privileges = &fake;
	args[0] = t_texts(tables, 2);
	args[1] = t_const_text("SELECT");
	calls = 0;
	assert_int_equal(call_env(&env, "has_table_privilege", args, 2, 2, &out), FLOE_OK);
	assert_int_equal(t_int_at(&out, 0), 1);
	assert_int_equal(t_int_at(&out, 1), 0);
	assert_int_equal(calls, 2);
	/* no session services (the embedded shell): every privilege */
	assert_int_equal(call_env(NULL, "has_table_privilege", args, 2, 2, &out), FLOE_OK);
	assert_int_equal(t_int_at(&out, 1), 1);
	/* a service's error is the kernel's */
	args[0] = t_texts(tables, 1);
	assert_int_equal(call_env(&env, "has_schema_privilege", args, 2, 1, &out), FLOE_ERR);
	assert_string_equal(T_err.sqlstate, "42704");
	/* pg_get_userbyid asks the session; without one only oid 10 is known */
	args[0] = t_ints(TYPE_INT32, oids, NULL, 2);
	assert_int_equal(call_env(&env, "pg_get_userbyid", args, 1, 2, &out), FLOE_OK);
	assert_string_equal(t_text_at(&out, 0), "alice");
	assert_string_equal(t_text_at(&out, 1), "unknown (OID=7)");
}

static void
test_session_env__capture_apply(void **state)
{
	SessionEnv leader, other;

	(void)state;
	text_set_extra_float_digits(3);
	func_set_statement_time(1234567);
	datetime_set_statement_now(7654321);
	session_env_capture(&leader);
	assert_int_equal(leader.float_digits, 3);
	assert_int_equal(leader.stmt_time, 1234567);
	assert_null(leader.privileges);
	/* another thread's state is replaced whole */
	text_set_extra_float_digits(0);
	func_set_statement_time(1);
	datetime_set_statement_now(2);
	session_env_capture(&other);
	assert_int_equal(other.float_digits, 0);
	session_env_apply(&leader);
	assert_int_equal(text_extra_float_digits(), 3);
	assert_int_equal(func_statement_time(), 1234567);
	assert_int_equal(datetime_statement_now(), 7654321);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_session_env__privileges_through_ctx, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_session_env__capture_apply, t_setup, t_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
