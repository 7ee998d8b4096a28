// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The control-file backend: callsites read from and queries written to
 * /proc/dynamic_debug/control (or the control file named, or a capture
 * file for the writes).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/paths.h"
#include "kernel/backend.h"
#include "kernel/control.h"
#include "model/limits.h"
#include "util/read-file.h"
#include "util/strbuf.h"

#define PROC_SUPER_MAGIC 0x9fa0
#define DEBUGFS_MAGIC 0x64626720

/* Matches nothing on a kernel with negation; rejected by one without. */
#define NEGATION_PROBE "!module * +_\n"

bool control_is_kernel(struct ddctl_ctx *ctx)
{
	const char *path;
	struct statfs sfs;

	if (ddctl_get_control_path(ctx, &path) < 0 || statfs(path, &sfs) < 0)
		return false;
	return sfs.f_type == PROC_SUPER_MAGIC || sfs.f_type == DEBUGFS_MAGIC;
}

bool control_writes_kernel(struct ddctl_ctx *ctx)
{
	return !ctx_get_write_capture(ctx) && control_is_kernel(ctx);
}

/*
 * The control file for writing; only the kernel's (procfs, debugfs), or
 * the capture file ddctl_set_write_capture() named instead.
 */
static int procfs_open(struct ddctl_ctx *ctx, const char *path)
{
	int fd;

	if (ctx_get_write_capture(ctx)) {
		path = ctx_get_write_capture(ctx);
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
			  O_CLOEXEC, 0644);
	} else if (!control_is_kernel(ctx)) {
		err(ctx, "%s is not the kernel's control file (not on procfs or debugfs): nothing written\n",
		    path);
		return -EMEDIUMTYPE;
	} else {
		fd = open(path, O_WRONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		fd = -errno;
		err(ctx, "cannot open %s for writing: %s%s\n", path,
		    strerror(-fd),
		    fd == -EACCES || fd == -EPERM ? " (writing needs root)" : "");
	}
	return fd;
}

static int procfs_write(struct ddctl_ctx *ctx, int fd, const char *buf, size_t len)
{
	ssize_t n;

	do {
		n = write(fd, buf, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		int e = -errno;

		err(ctx, "the kernel refused the queries: %s\n", strerror(-e));
		return e;
	}
	if ((size_t)n != len) {
		err(ctx, "short write to the control file (%zd of %zu bytes)\n",
		    n, len);
		return -EIO;
	}
	return 0;
}

int control_probe_negation(struct ddctl_ctx *ctx, const char *path)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		dbg(ctx, "cannot probe negation support: %s\n", strerror(errno));
		return 0;
	}
	n = write(fd, NEGATION_PROBE, strlen(NEGATION_PROBE));
	close(fd);
	dbg(ctx, "negation probe: %s\n", n < 0 ? strerror(errno) : "accepted");
	return n == (ssize_t)strlen(NEGATION_PROBE);
}

/*
 * The loaded modules, one "name state address" line each (/proc/modules
 * without the use counts and dependencies, which change while nothing is
 * loaded or unloaded); "" when there is no such list (no modules).
 */
static int modules_snapshot(const char *path, char **out)
{
	char *text = NULL, *line, *next, name[128], state[32], addr[32];
	struct strbuf sb = { 0 };
	int r = read_full_file(path, READ_FILE_TEXT, &text, NULL);

	if (r == -ENOENT)
		r = 0;
	for (line = text; r == 0 && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (sscanf(line, "%127s %*s %*s %*s %31s %31s", name, state, addr) < 1)
			continue;
		r = strbuf_addf(&sb, "%s %s %s\n", name, state, addr);
	}
	free(text);
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*out = sb.buf ? strbuf_steal(&sb) : strdup("");
	return *out ? 0 : -ENOMEM;
}

/*
 * The kernel gives the control file one page per read() and walks to the
 * position again each time: a module unloaded (or loaded) between two
 * reads shifts the positions, and sites of other modules are skipped or
 * repeated. So the module list is compared before and after the read, and
 * the file read again until they agree, at most CONTROL_READ_TRIES times,
 * waiting longer before each new try (25 ms, doubled each time: 3.2 s in
 * all): at boot, udev's coldplug loads modules for seconds, and a read
 * then finds a quiet moment (seen: ddctl.service failed on Debian's 6.12
 * with 5 tries back to back).
 */
#define CONTROL_READ_TRIES 8
#define CONTROL_READ_WAIT_US 25000

static int read_consistent(struct ddctl_ctx *ctx, const char *path,
			   const char *modules, char **text)
{
	char *before = NULL, *after = NULL;
	bool same;
	int r, i;

	for (i = 0; i < CONTROL_READ_TRIES; i++) {
		r = modules_snapshot(modules, &before);
		if (r < 0)
			goto modules_failed;
		r = read_full_file(path, READ_FILE_TEXT, text, NULL);
		if (r < 0) {
			free(before);
			err(ctx, "cannot read %s: %s\n", path, read_file_strerror(r));
			return r;
		}
		r = modules_snapshot(modules, &after);
		same = r == 0 && !strcmp(before, after);
		free(before);
		free(after);
		if (same)
			return 0;
		free(*text);
		*text = NULL;
		if (r < 0)
			goto modules_failed;
		dbg(ctx, "modules were loaded or unloaded while %s was read: reading it again\n",
		    path);
		if (i + 1 < CONTROL_READ_TRIES)
			usleep(CONTROL_READ_WAIT_US << i);
	}
	err(ctx, "modules were loaded or unloaded during each of %d reads of %s: no consistent snapshot of the callsites, nothing done (try again)\n",
	    CONTROL_READ_TRIES, path);
	return -EAGAIN;
modules_failed:
	err(ctx, "cannot read %s: %s\n", modules, read_file_strerror(r));
	return r;
}

static int control_read(struct ddctl_ctx *ctx, char **text)
{
	const char *path, *modules = modules_list_override();
	int r;

	r = ddctl_get_control_path(ctx, &path);
	if (r < 0)
		return r;
	*text = NULL;
	if (!modules && control_is_kernel(ctx))
		modules = PROC_MODULES;
	if (modules)
		return read_consistent(ctx, path, modules, text);
	r = read_full_file(path, READ_FILE_TEXT, text, NULL);
	if (r < 0)
		err(ctx, "cannot read %s: %s\n", path, read_file_strerror(r));
	return r;
}

static int control_open(struct backend *b)
{
	const char *path;
	int r;

	r = ddctl_get_control_path(b->ctx, &path);
	if (r < 0)
		return r;
	b->fd = procfs_open(b->ctx, path);
	if (b->fd < 0) {
		r = b->fd;
		b->fd = -1;
		return r;
	}
	b->reaches_kernel = control_writes_kernel(b->ctx);
	return 0;
}

static int control_exec(struct backend *b, const char *text, size_t len,
			const struct ddctl_query *queries, size_t n,
			bool dry_run, struct backend_result *res, char **errmsg)
{
	(void)queries;
	(void)n;
	(void)dry_run; /* a control file has no dry run: not called for one */
	(void)res;
	(void)errmsg;
	return procfs_write(b->ctx, b->fd, text, len);
}

static void control_close(struct backend *b)
{
	if (b->fd >= 0)
		close(b->fd);
	b->fd = -1;
}

const struct backend_ops control_backend = {
	.name = "control",
	.max_len = DD_WRITE_MAX,
	.transactional = false,
	.exec_name = "write",
	.split_note = "the set did not fit in one write: sent in %u writes\n",
	.read = control_read,
	.open = control_open,
	.exec = control_exec,
	.close = control_close,
};
