// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The library context: logging, the control file's path, the settings a
 * caller makes, and the state the kernel layer keeps per context (the
 * features found, the netlink family, libkmod). The struct is defined here
 * alone; the other layers use core/ctx.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <libkmod.h>

#include "core/ctx.h"
#include "core/paths.h"

struct ddctl_ctx {
	int refcount;
	void (*log_fn)(void *data, int priority, const char *file, int line,
		       const char *fn, const char *format, va_list args);
	void *log_data;
	int log_priority;
	char *control_path;
	bool features_known;
	unsigned int features;
	struct kmod_ctx *kmod;
	enum ddctl_backend backend; /* as set; AUTO resolves per call */
	unsigned int nl_family; /* 0: absent */
	uint32_t nl_seq; /* the last netlink request's sequence number */
	bool nl_probed;
	/* GET_FEATURES of the family: QUERIES_MAX, FEATURES, VALID_FLAGS */
	uint32_t nl_queries_max, nl_features, nl_valid_flags;
	bool control_path_set;
	char *config_root; /* NULL: $DDCTL_CONFIG_ROOT, else "" */
	char *write_capture; /* ddctl_set_write_capture(); NULL: the kernel */
	char *kernel; /* ddctl_set_kernel(), else the running kernel's release */
	bool kernel_set, kernel_probed;
};

static void log_stderr(void *data, int priority, const char *file, int line,
		       const char *fn, const char *format, va_list args)
{
	(void)data;
	(void)priority;
	(void)file;
	(void)line;
	(void)fn;
	fprintf(stderr, "libddctl: ");
	vfprintf(stderr, format, args);
}

static int log_priority_from_string(const char *s)
{
	char *end;
	long prio = strtol(s, &end, 10);

	if (end != s && *end == '\0')
		return (int)prio;
	if (!strncmp(s, "err", 3))
		return LOG_ERR;
	if (!strncmp(s, "info", 4))
		return LOG_INFO;
	if (!strncmp(s, "debug", 5))
		return LOG_DEBUG;
	return LOG_ERR;
}

void ddctl_log(struct ddctl_ctx *ctx, int priority, const char *file,
	       int line, const char *fn, const char *format, ...)
{
	va_list args;

	if (!ctx->log_fn)
		return;
	va_start(args, format);
	ctx->log_fn(ctx->log_data, priority, file, line, fn, format, args);
	va_end(args);
}

DDCTL_EXPORT int ddctl_new(struct ddctl_ctx **out)
{
	struct ddctl_ctx *ctx = calloc(1, sizeof(*ctx));
	const char *env;

	if (!ctx)
		return -ENOMEM;
	ctx->refcount = 1;
	ctx->log_fn = log_stderr;
	ctx->log_priority = LOG_WARNING;
	env = secure_getenv("DDCTL_LOG");
	if (env)
		ctx->log_priority = log_priority_from_string(env);
	*out = ctx;
	return 0;
}

DDCTL_EXPORT struct ddctl_ctx *ddctl_ref(struct ddctl_ctx *ctx)
{
	if (ctx)
		ctx->refcount++;
	return ctx;
}

DDCTL_EXPORT struct ddctl_ctx *ddctl_unref(struct ddctl_ctx *ctx)
{
	if (!ctx || --ctx->refcount > 0)
		return ctx;
	kmod_unref(ctx->kmod);
	free(ctx->control_path);
	free(ctx->config_root);
	free(ctx->write_capture);
	free(ctx->kernel);
	free(ctx);
	return NULL;
}

DDCTL_EXPORT void ddctl_set_log_fn(struct ddctl_ctx *ctx,
				   void (*fn)(void *data, int priority,
					      const char *file, int line,
					      const char *fn,
					      const char *format, va_list args),
				   void *data)
{
	ctx->log_fn = fn;
	ctx->log_data = data;
}

DDCTL_EXPORT int ddctl_get_log_priority(const struct ddctl_ctx *ctx)
{
	return ctx->log_priority;
}

DDCTL_EXPORT void ddctl_set_log_priority(struct ddctl_ctx *ctx, int priority)
{
	ctx->log_priority = priority;
}

DDCTL_EXPORT int ddctl_set_control_path(struct ddctl_ctx *ctx,
					const char *path)
{
	char *copy = NULL;

	if (path) {
		copy = strdup(path);
		if (!copy)
			return -ENOMEM;
	}
	free(ctx->control_path);
	ctx->control_path = copy;
	ctx->control_path_set = copy != NULL;
	if (!ctx->kernel_set) { /* found again: a named file's kernel is not uname's */
		free(ctx->kernel);
		ctx->kernel = NULL;
		ctx->kernel_probed = false;
	}
	ctx->features_known = false;
	return 0;
}

DDCTL_EXPORT int ddctl_set_write_capture(struct ddctl_ctx *ctx,
					 const char *path)
{
	char *copy = path ? strdup(path) : NULL;

	if (path && !copy)
		return -ENOMEM;
	free(ctx->write_capture);
	ctx->write_capture = copy;
	return 0;
}

DDCTL_EXPORT int ddctl_get_control_path(struct ddctl_ctx *ctx,
					const char **path)
{
	int r;

	if (!ctx->control_path) {
		r = control_path_find(&ctx->control_path);
		if (r < 0)
			return r;
	}
	*path = ctx->control_path;
	return 0;
}

DDCTL_EXPORT void ddctl_set_features(struct ddctl_ctx *ctx,
				     unsigned int features)
{
	ctx->features = features;
	ctx->features_known = true;
}

DDCTL_EXPORT void ddctl_set_backend(struct ddctl_ctx *ctx,
				    enum ddctl_backend backend)
{
	ctx->backend = backend;
}

DDCTL_EXPORT int ddctl_set_config_root(struct ddctl_ctx *ctx, const char *root)
{
	char *copy = root ? strdup(root) : NULL;

	if (root && !copy)
		return -ENOMEM;
	free(ctx->config_root);
	ctx->config_root = copy;
	return 0;
}

enum ddctl_backend ctx_get_backend_setting(const struct ddctl_ctx *ctx)
{
	return ctx->backend;
}

bool ctx_control_path_is_set(const struct ddctl_ctx *ctx)
{
	return ctx->control_path_set;
}

const char *ctx_get_write_capture(const struct ddctl_ctx *ctx)
{
	return ctx->write_capture;
}

const char *ctx_get_config_root(const struct ddctl_ctx *ctx)
{
	const char *env;

	if (ctx->config_root)
		return ctx->config_root;
	env = secure_getenv("DDCTL_CONFIG_ROOT");
	return env ? env : "";
}

DDCTL_EXPORT const char *ddctl_get_config_root(struct ddctl_ctx *ctx)
{
	return ctx_get_config_root(ctx);
}

bool ctx_get_known_features(const struct ddctl_ctx *ctx, unsigned int *features)
{
	*features = ctx->features;
	return ctx->features_known;
}

struct kmod_ctx *ctx_get_kmod(const struct ddctl_ctx *ctx)
{
	return ctx->kmod;
}

void ctx_set_kmod(struct ddctl_ctx *ctx, struct kmod_ctx *kmod)
{
	if (ctx->kmod != kmod)
		kmod_unref(ctx->kmod);
	ctx->kmod = kmod;
}

unsigned int ctx_get_nl_family(const struct ddctl_ctx *ctx)
{
	return ctx->nl_family;
}

void ctx_set_nl_family(struct ddctl_ctx *ctx, unsigned int id)
{
	ctx->nl_family = id;
}

bool ctx_get_nl_probed(const struct ddctl_ctx *ctx)
{
	return ctx->nl_probed;
}

void ctx_set_nl_probed(struct ddctl_ctx *ctx)
{
	ctx->nl_probed = true;
}

void ctx_set_nl_features(struct ddctl_ctx *ctx, uint32_t queries_max,
			 uint32_t features, uint32_t valid_flags)
{
	ctx->nl_queries_max = queries_max;
	ctx->nl_features = features;
	ctx->nl_valid_flags = valid_flags;
}

void ctx_get_nl_features(const struct ddctl_ctx *ctx, uint32_t *queries_max,
			 uint32_t *features, uint32_t *valid_flags)
{
	*queries_max = ctx->nl_queries_max;
	*features = ctx->nl_features;
	*valid_flags = ctx->nl_valid_flags;
}

uint32_t ctx_next_nl_seq(struct ddctl_ctx *ctx)
{
	return ++ctx->nl_seq;
}

DDCTL_EXPORT int ddctl_set_kernel(struct ddctl_ctx *ctx, const char *release)
{
	char *copy = NULL;

	if (release && !*release)
		return -EINVAL;
	if (release) {
		copy = strdup(release);
		if (!copy)
			return -ENOMEM;
	}
	free(ctx->kernel);
	ctx->kernel = copy;
	ctx->kernel_set = copy != NULL;
	ctx->kernel_probed = copy != NULL;
	return 0;
}

/*
 * The release whose query language applies: as set, else the running
 * kernel's (uname) when the control file is the running kernel's, else
 * NULL (a named control file of an unknown kernel: the newest rules).
 */
DDCTL_EXPORT const char *ddctl_get_kernel(struct ddctl_ctx *ctx)
{
	struct utsname u;

	if (!ctx->kernel_probed) {
		ctx->kernel_probed = true;
		if (!ctx->control_path_set && uname(&u) == 0)
			ctx->kernel = strdup(u.release);
	}
	return ctx->kernel;
}

bool ctx_kernel_is_set(const struct ddctl_ctx *ctx)
{
	return ctx->kernel_set;
}
