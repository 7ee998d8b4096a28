// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The kernel log as /dev/kmsg gives it: a reader, the record parser
 * ("prio,seq,usec,flags[,caller=..];text\n" and " KEY=VALUE" continuation
 * lines) and the parser of the decoration dynamic debug puts in front of a
 * message (lib/dynamic_debug.c __dynamic_emit_prefix(), Linux 6.12):
 * "[tid] " or "<intr> ", then "module:", "function:", "file:", "line:" for
 * the flags m, f, s, l, then one space. An index finds the callsite a
 * decorated line came from.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libddctl-private.h"

/* /dev/kmsg returns one record per read; 8 KiB holds the longest. */
#define KMSG_BUFSZ 16384
#define DECORATION_FLAGS (DDCTL_FLAG_MODNAME | DDCTL_FLAG_FUNCNAME | \
			  DDCTL_FLAG_SOURCENAME | DDCTL_FLAG_LINENO)

#define DIGITS "0123456789"
/* module names (KBUILD_MODNAME) and function names (__func__) */
#define NAME_CHARS DIGITS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-.$"

struct ddctl_kmsg {
	struct ddctl_ctx *ctx;
	int fd;
	bool eof;
	size_t start, len; /* pending bytes: buf[start, start + len) */
	char buf[KMSG_BUFSZ + 1];
};

static bool parse_ull(const char **p, const char *end, unsigned long long *v)
{
	const char *s = *p;
	unsigned long long n = 0;

	if (s >= end || *s < '0' || *s > '9')
		return false;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (n > (~0ULL - 9) / 10)
			return false;
		n = n * 10 + (unsigned long long)(*s - '0');
	}
	*p = s;
	*v = n;
	return true;
}

DDCTL_EXPORT int ddctl_kmsg_record_parse(char *buf, size_t len,
					 struct ddctl_kmsg_record *rec)
{
	const char *p = buf, *end = buf + len, *semi;
	unsigned long long prio, seq, usec;
	char *text, *nl;

	semi = memchr(buf, ';', len);
	if (!semi || !parse_ull(&p, semi, &prio) || prio > 0xffffffu * 8 + 7 ||
	    p >= semi || *p++ != ',' || !parse_ull(&p, semi, &seq) ||
	    p >= semi || *p++ != ',' || !parse_ull(&p, semi, &usec))
		return -EBADMSG;
	/* the flags field and whatever newer kernels add (",caller=T1") */
	rec->continuation = false;
	if (p < semi && *p == ',') {
		p++;
		rec->continuation = p < semi && *p == 'c';
	} else if (p != semi) {
		return -EBADMSG;
	}
	text = buf + (semi + 1 - buf);
	nl = memchr(text, '\n', (size_t)(end - text));
	if (!nl)
		nl = buf + len;
	if (memchr(text, '\0', (size_t)(nl - text)))
		return -EBADMSG;
	*nl = '\0'; /* continuation lines (" SUBSYSTEM=...") are dropped */
	rec->level = (unsigned int)(prio & 7);
	rec->facility = (unsigned int)(prio >> 3);
	rec->seq = seq;
	rec->usec = usec;
	rec->text = text;
	rec->len = (size_t)(nl - text);
	return 0;
}

/*
 * A field of the decoration: up to ':', 1 to 127 bytes of @chars (NULL:
 * anything but a blank).
 */
static const char *prefix_field(const char *p, char *out, const char *chars)
{
	size_t n = 0;

	for (; p[n] && p[n] != ':'; n++)
		if (p[n] == ' ' || (chars && !strchr(chars, p[n])))
			return NULL;
	if (!p[n] || n == 0 || n >= DDCTL_KMSG_FIELD_MAX)
		return NULL;
	memcpy(out, p, n);
	out[n] = '\0';
	return p + n + 1;
}

static const char *prefix_tid(const char *p, long *tid)
{
	unsigned long long v;
	const char *s = p + 1;

	if (!strncmp(p, "<intr> ", 7)) {
		*tid = 0;
		return p + 7;
	}
	if (*p != '[' || !parse_ull(&s, s + 12, &v) || v > 0x7fffffff ||
	    s[0] != ']' || s[1] != ' ')
		return p;
	*tid = (long)v;
	return s + 2;
}

DDCTL_EXPORT int ddctl_kmsg_prefix_parse(const char *text, unsigned int flags,
					 struct ddctl_kmsg_prefix *prefix)
{
	static const unsigned int order[] = { DDCTL_FLAG_MODNAME,
		DDCTL_FLAG_FUNCNAME, DDCTL_FLAG_SOURCENAME, DDCTL_FLAG_LINENO };
	struct ddctl_kmsg_prefix p = { .tid = -1 };
	const char *s = text;
	char line[DDCTL_KMSG_FIELD_MAX];
	size_t i;

	if (flags & DDCTL_FLAG_TID)
		s = prefix_tid(s, &p.tid);
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		char *out = order[i] == DDCTL_FLAG_MODNAME ? p.module :
			    order[i] == DDCTL_FLAG_FUNCNAME ? p.function :
			    order[i] == DDCTL_FLAG_SOURCENAME ? p.file : line;

		if (!(flags & order[i]))
			continue;
		s = prefix_field(s, out, order[i] == DDCTL_FLAG_LINENO ? DIGITS :
				 order[i] == DDCTL_FLAG_SOURCENAME ? NULL : NAME_CHARS);
		if (!s)
			return -ENOMSG;
		p.flags |= order[i];
	}
	if (order[3] & p.flags) {
		unsigned long long v;
		const char *l = line;

		if (!parse_ull(&l, l + strlen(l), &v) || v > 0xffffffffu)
			return -ENOMSG;
		p.line = (unsigned int)v;
	}
	if (p.flags) {
		if (*s != ' ')
			return -ENOMSG;
		s++;
	}
	if (p.tid >= 0)
		p.flags |= DDCTL_FLAG_TID;
	p.message = s;
	*prefix = p;
	return 0;
}

/* ---- finding the callsite of a decorated line ---------------------- */

struct ddctl_kmsg_index {
	struct ddctl_table *table;
	size_t *order; /* site indices sorted by module, function, file, line */
};

static int cmp_key(const struct ddctl_site *s, const char *module,
		   const char *function, const char *file, unsigned int line)
{
	int r = strcmp(s->module, module);

	if (!r)
		r = strcmp(s->function, function);
	if (!r)
		r = strcmp(s->file, file);
	if (!r)
		r = (s->line > line) - (s->line < line);
	return r;
}

static int cmp_sites(const void *pa, const void *pb, void *data)
{
	const struct ddctl_table *t = data;
	const struct ddctl_site *b = &t->sites[*(const size_t *)pb];
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	int r = cmp_key(&t->sites[ia], b->module, b->function, b->file, b->line);

	return r ? r : (ia > ib) - (ia < ib);
}

DDCTL_EXPORT int ddctl_kmsg_index_new(struct ddctl_table *table,
				      struct ddctl_kmsg_index **out)
{
	struct ddctl_kmsg_index *idx = calloc(1, sizeof(*idx));
	size_t i;

	if (idx)
		idx->order = malloc((table->count + 1) * sizeof(*idx->order));
	if (!idx || !idx->order) {
		free(idx);
		return -ENOMEM;
	}
	for (i = 0; i < table->count; i++)
		idx->order[i] = i;
	qsort_r(idx->order, table->count, sizeof(*idx->order), cmp_sites, table);
	idx->table = ddctl_table_ref(table);
	*out = idx;
	return 0;
}

DDCTL_EXPORT void ddctl_kmsg_index_free(struct ddctl_kmsg_index *idx)
{
	if (!idx)
		return;
	ddctl_table_unref(idx->table);
	free(idx->order);
	free(idx);
}

static bool site_fits(const struct ddctl_site *s,
		      const struct ddctl_kmsg_prefix *p)
{
	return (!(p->flags & DDCTL_FLAG_MODNAME) || !strcmp(s->module, p->module)) &&
	       (!(p->flags & DDCTL_FLAG_FUNCNAME) || !strcmp(s->function, p->function)) &&
	       (!(p->flags & DDCTL_FLAG_SOURCENAME) || !strcmp(s->file, p->file)) &&
	       (!(p->flags & DDCTL_FLAG_LINENO) || s->line == p->line);
}

/*
 * Whether @msg (escaped as /dev/kmsg prints it) can be what @fmt printed:
 * every conversion ("%d", "%*ph", ...) stands for any text, "%%" for '%',
 * a trailing newline is not part of the record.
 */
static bool format_fits(const char *fmt, const char *msg)
{
	const char *star_f = NULL, *star_m = NULL;
	char esc[8];
	size_t n;

	for (;;) {
		if (*fmt == '%' && fmt[1] != '%' && fmt[1]) {
			fmt += 1 + strspn(fmt + 1, "#0- +'*.0123456789hlLqjzt");
			if (*fmt == 'p') /* %pS, %pV, %*ph...: letters follow */
				while (fmt[1] >= 'A' && fmt[1] <= 'z' && fmt[1] != '\\')
					fmt++;
			if (*fmt)
				fmt++;
			star_f = fmt;
			star_m = msg;
			continue;
		}
		if (*fmt == '\n' && !fmt[1])
			fmt++;
		if (!*fmt && !*msg)
			return true;
		if (*fmt) {
			unsigned char c = (unsigned char)*fmt;

			if (c < ' ' || c >= 127 || c == '\\')
				snprintf(esc, sizeof(esc), "\\x%02x", c);
			else
				snprintf(esc, sizeof(esc), "%c", c);
			n = strlen(esc);
			if (!strncmp(msg, esc, n)) {
				fmt += 1 + (c == '%');
				msg += n;
				continue;
			}
		}
		if (!star_f || !*star_m)
			return false;
		fmt = star_f; /* the last conversion takes one more byte */
		msg = ++star_m;
	}
}

DDCTL_EXPORT int ddctl_kmsg_index_find(const struct ddctl_kmsg_index *idx,
				       const struct ddctl_kmsg_prefix *prefix,
				       size_t *site)
{
	const struct ddctl_table *t = idx->table;
	size_t lo = 0, hi = t->count, i;
	int n = 0;

	if ((prefix->flags & DECORATION_FLAGS) != DECORATION_FLAGS) {
		/* a partial decoration: every site that fits */
		for (i = 0; i < t->count; i++) {
			if (!site_fits(&t->sites[idx->order[i]], prefix))
				continue;
			if (!n++)
				*site = idx->order[i];
		}
		return n ? n : -ENOENT;
	}
	while (lo < hi) { /* the first site not before the key */
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_key(&t->sites[idx->order[mid]], prefix->module,
			    prefix->function, prefix->file, prefix->line) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < t->count && site_fits(&t->sites[idx->order[i]], prefix); i++)
		if (!n++)
			*site = idx->order[i];
	if (n > 1 && prefix->message) {
		/* one source line, several callsites: the format tells */
		size_t fit = 0, m = 0;

		for (i = lo; i < lo + (size_t)n; i++)
			if (format_fits(t->sites[idx->order[i]].format, prefix->message) &&
			    !m++)
				fit = idx->order[i];
		if (m) {
			*site = fit;
			return (int)m;
		}
	}
	return n ? n : -ENOENT;
}

/* ---- the reader ---------------------------------------------------- */

DDCTL_EXPORT int ddctl_kmsg_new(struct ddctl_ctx *ctx, const char *path,
				unsigned int flags, struct ddctl_kmsg **out)
{
	struct ddctl_kmsg *k;
	struct stat st;

	if (!path)
		path = "/dev/kmsg";
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0) {
		int r = -errno;

		err(ctx, "cannot open %s: %s\n", path, strerror(errno));
		free(k);
		return r;
	}
	/*
	 * /dev/kmsg starts at the first record in the buffer; SEEK_END skips
	 * to what comes next. A stand-in (a file or a FIFO) is read as it is.
	 */
	if (!(flags & DDCTL_KMSG_SINCE_BOOT) && fstat(k->fd, &st) == 0 &&
	    (S_ISCHR(st.st_mode) || S_ISREG(st.st_mode)) &&
	    lseek(k->fd, 0, SEEK_END) < 0 && S_ISCHR(st.st_mode)) {
		int r = -errno;

		err(ctx, "cannot seek to the end of %s: %s\n", path, strerror(errno));
		close(k->fd);
		free(k);
		return r;
	}
	k->ctx = ddctl_ref(ctx);
	*out = k;
	return 0;
}

DDCTL_EXPORT void ddctl_kmsg_free(struct ddctl_kmsg *kmsg)
{
	if (!kmsg)
		return;
	close(kmsg->fd);
	ddctl_unref(kmsg->ctx);
	free(kmsg);
}

DDCTL_EXPORT int ddctl_kmsg_get_fd(const struct ddctl_kmsg *kmsg)
{
	return kmsg->fd;
}

/* The length of the first complete record in the pending bytes, or 0. */
static size_t record_len(const struct ddctl_kmsg *k)
{
	const char *p = k->buf + k->start, *end = p + k->len, *nl;

	for (nl = p; (nl = memchr(nl, '\n', (size_t)(end - nl))); nl++) {
		if (nl + 1 < end && nl[1] == ' ')
			continue; /* a continuation line follows */
		return (size_t)(nl + 1 - p);
	}
	/* at the end of the log (stand-ins only), what is left is a record */
	return k->eof ? k->len : 0;
}

DDCTL_EXPORT int ddctl_kmsg_read(struct ddctl_kmsg *kmsg,
				 struct ddctl_kmsg_record *rec)
{
	struct ddctl_kmsg *k = kmsg;
	size_t n;
	ssize_t got;
	int r;

	for (;;) {
		n = record_len(k);
		if (n) {
			char *rbuf = k->buf + k->start;

			k->start += n;
			k->len -= n;
			r = ddctl_kmsg_record_parse(rbuf, n, rec);
			if (r < 0)
				dbg(k->ctx, "kernel log: not a record: %.*s\n",
				    (int)strcspn(rbuf, "\n"), rbuf);
			return r < 0 ? r : 1;
		}
		if (k->eof)
			return -ENODATA;
		if (k->start) {
			memmove(k->buf, k->buf + k->start, k->len);
			k->start = 0;
		}
		if (k->len == KMSG_BUFSZ) { /* a stand-in's line too long: drop it */
			k->len = 0;
			return -EBADMSG;
		}
		got = read(k->fd, k->buf + k->len, KMSG_BUFSZ - k->len);
		if (got < 0) {
			r = -errno;
			if (r == -EAGAIN)
				return 0;
			return r; /* -EPIPE: records were overwritten; read on */
		}
		if (got == 0)
			k->eof = true;
		k->len += (size_t)got;
		k->buf[k->len] = '\0';
	}
}
