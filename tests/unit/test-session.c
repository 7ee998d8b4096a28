// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Scoped sessions (store/session.c): the set with its decoration, the
 * record written before any change and read back, the restore set (sites
 * another writer changed are left alone), stale records.
 */
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"
#include "util/read-file.h"

#define MFSL (DDCTL_FLAG_MODNAME | DDCTL_FLAG_FUNCNAME | DDCTL_FLAG_SOURCENAME | \
	      DDCTL_FLAG_LINENO)

TEST_RUN_DIR_GROUP("session")

static char *set_text(struct ddctl_queryset *set)
{
	static char buf[4096];
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < ddctl_queryset_get_count(set); i++) {
		strcat(buf, ddctl_query_get_canonical(ddctl_queryset_get_query(set, i)));
		strcat(buf, "\n");
	}
	return buf;
}

/* The flags of every site of @t after @set, as a table. */
static struct ddctl_table *apply(struct ddctl_table *t, struct ddctl_queryset *set)
{
	struct ddctl_plan *plan = NULL;
	struct ddctl_table *out = NULL;

	assert_int_equal(ddctl_plan_new(set, t, &plan), 0);
	assert_int_equal(ddctl_table_new_from_plan(plan, &out), 0);
	ddctl_plan_unref(plan);
	return out;
}

static void assert_same_flags(struct ddctl_table *a, struct ddctl_table *b)
{
	size_t i;

	assert_int_equal(ddctl_table_get_count(a), ddctl_table_get_count(b));
	for (i = 0; i < ddctl_table_get_count(a); i++)
		assert_int_equal(ddctl_site_get_flags(ddctl_table_get_site(a, i)),
				 ddctl_site_get_flags(ddctl_table_get_site(b, i)));
}

static void test_set_and_sites(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "hand-escapes.txt"), *sites, *during;
	struct ddctl_queryset *set = test_parse(ctx, "module virtio* +p");
	struct ddctl_session *s = NULL;
	size_t i;

	assert_int_equal(ddctl_session_new(set, t, MFSL, &s), 0);
	/* the user's query, then the decoration for the sites left printing */
	assert_string_equal(set_text(ddctl_session_get_set(s)),
			    "module virtio* +p\nmodule virtio +mfsl\nmodule virtio_net +mfsl\n");
	sites = ddctl_session_get_sites(s);
	assert_int_equal(ddctl_table_get_count(sites), 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(ddctl_site_get_flags(ddctl_table_get_site(sites, i)),
				 DDCTL_FLAG_PRINT | MFSL);
	/* virtnet_probe had =pf: it changes too (m, l, s) */
	assert_int_equal(ddctl_session_get_change_count(s), 5);
	assert_null(ddctl_session_get_path(s));
	assert_int_equal(ddctl_session_get_pid(s), -1);
	during = apply(t, ddctl_session_get_set(s));
	ddctl_session_free(s);
	ddctl_table_unref(during);
	ddctl_queryset_unref(set);

	/* a set that switches sites off follows nothing and decorates nothing */
	set = test_parse(ctx, "module virtio_net -p");
	assert_int_equal(ddctl_session_new(set, t, MFSL, &s), 0);
	assert_int_equal(ddctl_table_get_count(ddctl_session_get_sites(s)), 0);
	assert_string_equal(set_text(ddctl_session_get_set(s)), "module virtio_net -p\n");
	assert_int_equal(ddctl_session_get_change_count(s), 1);
	ddctl_session_free(s);
	ddctl_queryset_unref(set);

	/* match-only sets are refused */
	assert_int_equal(ddctl_queryset_new(ctx, &set), 0);
	assert_int_equal(ddctl_queryset_parse(set, "module virtio", DDCTL_PARSE_MATCH_ONLY), 0);
	assert_int_equal(ddctl_session_new(set, t, MFSL, &s), -EINVAL);
	ddctl_queryset_unref(set);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

struct found {
	int n;
	long pid;
	bool running;
	char command[256];
	char restore[1024];
};

static int note(struct ddctl_session *s, void *data)
{
	struct found *f = data;

	f->n++;
	f->pid = ddctl_session_get_pid(s);
	f->running = ddctl_session_is_running(s);
	snprintf(f->command, sizeof(f->command), "%s", ddctl_session_get_command(s));
	snprintf(f->restore, sizeof(f->restore), "%s", ddctl_session_get_restore_script(s));
	return 0;
}

static void test_record_and_restore(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t, *during, *after, *other;
	struct ddctl_queryset *set, *restore = NULL;
	struct ddctl_session *s = NULL;
	struct found f = { 0 };
	struct stat st;
	size_t skipped = 99;
	char path[512];

	t = test_table(ctx, "hand-escapes.txt");
	set = test_parse(ctx, "module virtio* +p; func do_prints -p");
	assert_int_equal(ddctl_session_new(set, t, MFSL, &s), 0);
	assert_int_equal(ddctl_session_save(s, "ddctl follow a\nb"), 0);
	assert_int_equal(ddctl_session_get_pid(s), (long)getpid());
	snprintf(path, sizeof(path), "%s/run/ddctl/sessions/", root);
	assert_memory_equal(ddctl_session_get_path(s), path, strlen(path));
	assert_int_equal(stat(ddctl_session_get_path(s), &st), 0);

	/* read back: ours, running, the command on one line */
	assert_int_equal(ddctl_session_foreach(ctx, note, &f), 0);
	assert_int_equal(f.n, 1);
	assert_int_equal(f.pid, (long)getpid());
	assert_true(f.running);
	assert_string_equal(f.command, "ddctl follow a?b");
	assert_string_equal(f.restore, ddctl_session_get_restore_script(s));

	/* undo from the state the session left: exactly the state before */
	during = apply(t, ddctl_session_get_set(s));
	assert_int_equal(ddctl_session_get_restore(s, during, &restore, &skipped), 0);
	assert_int_equal(skipped, 0);
	after = apply(during, restore);
	assert_same_flags(after, t);
	ddctl_table_unref(after);
	ddctl_queryset_unref(restore);

	/* another writer changed virtnet_probe (=pmfls -> =p): left alone */
	ddctl_queryset_unref(set);
	set = test_parse(ctx, "func virtnet_probe =p");
	other = apply(during, set);
	assert_int_equal(ddctl_session_get_restore(s, other, &restore, &skipped), 0);
	assert_int_equal(skipped, 1);
	after = apply(other, restore);
	assert_int_equal(ddctl_site_get_flags(ddctl_table_get_site(after, 4)), DDCTL_FLAG_PRINT);
	assert_int_equal(ddctl_site_get_flags(ddctl_table_get_site(after, 9)),
			 ddctl_site_get_flags(ddctl_table_get_site(t, 9)));
	assert_int_equal(ddctl_site_get_flags(ddctl_table_get_site(after, 2)), 0);
	ddctl_table_unref(after);
	ddctl_queryset_unref(restore);
	ddctl_table_unref(other);

	/* nothing to do once restored */
	assert_int_equal(ddctl_session_get_restore(s, t, &restore, &skipped), 0);
	assert_int_equal(ddctl_queryset_get_count(restore), 0);
	assert_int_equal(skipped, 0);
	ddctl_queryset_unref(restore);

	assert_int_equal(ddctl_session_remove(s), 0);
	assert_null(ddctl_session_get_path(s));
	f.n = 0;
	assert_int_equal(ddctl_session_foreach(ctx, note, &f), 0);
	assert_int_equal(f.n, 0);
	ddctl_session_free(s);
	ddctl_table_unref(during);
	ddctl_queryset_unref(set);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

static void test_stale(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t;
	struct ddctl_queryset *set;
	struct found f = { 0 };
	char path[512];
	pid_t pid;
	int status;
	FILE *bad;

	t = test_table(ctx, "hand-escapes.txt");
	set = test_parse(ctx, "module virtio +p");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) { /* a session that is killed */
		struct ddctl_session *s = NULL;

		if (ddctl_session_new(set, t, MFSL, &s) || ddctl_session_save(s, "ddctl follow x"))
			_exit(1);
		pause();
		_exit(2);
	}
	do { /* wait for the record, then kill the child */
		f.n = 0;
		assert_int_equal(ddctl_session_foreach(ctx, note, &f), 0);
		if (f.n == 0)
			usleep(10000);
	} while (f.n == 0 && waitpid(pid, &status, WNOHANG) == 0);
	assert_int_equal(f.n, 1);
	assert_true(f.running);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	f.n = 0;
	assert_int_equal(ddctl_session_foreach(ctx, note, &f), 0);
	assert_int_equal(f.n, 1);
	assert_int_equal(f.pid, pid);
	assert_false(f.running);
	assert_string_equal(f.restore, "module virtio =\n");

	/* a file that is not a record is skipped */
	snprintf(path, sizeof(path), "%s/run/ddctl/sessions/0-0.session", root);
	bad = fopen(path, "w");
	assert_non_null(bad);
	fputs("pid=1\n", bad);
	fclose(bad);
	f.n = 0;
	assert_int_equal(ddctl_session_foreach(ctx, note, &f), 0);
	assert_int_equal(f.n, 1);
	unlink(path);
	ddctl_queryset_unref(set);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

struct later {
	int n;
	size_t modules;
	char module[64];
	bool has_path;
};

static int note_later(struct ddctl_session *s, void *data)
{
	struct later *l = data;

	if (!ddctl_session_get_module_count(s))
		return 0; /* another test's */
	l->n++;
	l->modules = ddctl_session_get_module_count(s);
	snprintf(l->module, sizeof(l->module), "%s", ddctl_session_get_module(s, 0) ?: "");
	l->has_path = ddctl_session_get_load_config_path(s) != NULL;
	return 0;
}

/*
 * A module that is not loaded: the record (saved although no site
 * changes now) names it and the load-time file, which holds its queries
 * and the decoration; a module loaded later is recorded and followed.
 */
static void test_later_modules(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "hand-escapes.txt"), *now;
	struct ddctl_queryset *set = test_parse(ctx, "module later_mod +p; module virtio_net +p");
	struct ddctl_session *s = NULL;
	struct later l = { 0 };
	char croot[256], *text = NULL;
	size_t added = 0, n0;
	const char *path;

	snprintf(croot, sizeof(croot), "%s/config", root);
	assert_int_equal(setenv("DDCTL_CONFIG_ROOT", croot, 1), 0);
	assert_int_equal(ddctl_session_new(set, t, MFSL, &s), 0);
	assert_int_equal(ddctl_session_get_module_count(s), 1);
	assert_string_equal(ddctl_session_get_module(s, 0), "later_mod");
	assert_null(ddctl_session_get_module(s, 1));
	assert_null(ddctl_session_get_load_config_path(s));
	assert_int_equal(ddctl_session_save(s, "ddctl follow"), 0);
	path = ddctl_session_get_load_config_path(s);
	assert_non_null(path);
	assert_non_null(strstr(path, "/config/run/modprobe.d/ddctl-session-"));
	assert_int_equal(read_full_file(path, 0, &text, NULL), 0);
	assert_non_null(strstr(text, "\noptions later_mod dyndbg=\"+p; +mfsl\"\n"));
	assert_null(strstr(text, "virtio_net")); /* loaded: set now, not at load */
	free(text);
	assert_int_equal(ddctl_session_foreach(ctx, note_later, &l), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.modules, 1);
	assert_string_equal(l.module, "later_mod");
	assert_true(l.has_path);

	/* virtio_net loads again meanwhile: its printing sites followed */
	n0 = ddctl_table_get_count(ddctl_session_get_sites(s));
	now = apply(t, set);
	assert_int_equal(ddctl_session_follow_module(s, now, "virtio_net", &added), 0);
	assert_int_equal(added, 3);
	assert_int_equal(ddctl_table_get_count(ddctl_session_get_sites(s)), n0 + 3);
	assert_string_equal(ddctl_site_get_module(ddctl_table_get_site(ddctl_session_get_sites(s),
								       n0)), "virtio_net");
	ddctl_table_unref(now); /* the followed sites keep their strings */
	assert_string_equal(ddctl_site_get_function(ddctl_table_get_site(
		ddctl_session_get_sites(s), n0 + 2)), "virtnet_remove");

	/* a module the file does not name: its own session, joined; the
	 * record has both, and the restore puts its sites back */
	{
		struct ddctl_queryset *vset = test_parse(ctx, "module virtio_net +t");
		struct ddctl_queryset *back = NULL;
		struct ddctl_session *sub = NULL;
		struct ddctl_table *during, *after;
		size_t n1 = ddctl_table_get_count(ddctl_session_get_sites(s));

		assert_int_equal(ddctl_session_new(vset, t, MFSL, &sub), 0);
		assert_true(ddctl_session_get_change_count(sub) > 0);
		assert_int_equal(ddctl_session_merge(s, sub), 0);
		assert_int_equal(ddctl_table_get_count(ddctl_session_get_sites(s)),
				 n1 + ddctl_table_get_count(ddctl_session_get_sites(sub)));
		assert_non_null(strstr(ddctl_session_get_restore_script(s),
				       ddctl_session_get_restore_script(sub)));
		assert_int_equal(read_full_file(ddctl_session_get_path(s), 0, &text, NULL), 0);
		assert_non_null(strstr(text, ddctl_session_get_restore_script(sub)));
		free(text);
		during = apply(t, ddctl_session_get_set(sub));
		assert_int_equal(ddctl_session_get_restore(s, during, &back, NULL), 0);
		after = apply(during, back);
		assert_same_flags(after, t);
		ddctl_table_unref(after);
		ddctl_table_unref(during);
		ddctl_queryset_unref(back);
		ddctl_session_free(sub);
		ddctl_queryset_unref(vset);
	}

	/* removing the session removes the file, and again is fine */
	assert_int_equal(ddctl_session_remove(s), 0);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(ddctl_session_remove_load_config(s), 0);
	ddctl_session_free(s);
	ddctl_queryset_unref(set);
	ddctl_table_unref(t);
	unsetenv("DDCTL_CONFIG_ROOT");
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_and_sites),
		cmocka_unit_test(test_record_and_restore),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_later_modules),
	};

	return cmocka_run_group_tests_name("session", tests, setup, teardown);
}
