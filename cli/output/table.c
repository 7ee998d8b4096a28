// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Aligned columns for people: widths from the data; on a terminal, only a
 * line that does not fit is cut to its width with an ellipsis (paths at
 * the left, the rest at the right). Piped output and --full keep every
 * cell whole. The one header rule: a header on a terminal, none piped,
 * none with --no-legend.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/pager.h"
#include "output/table.h"

/* The terminal shows the cell; bytes that continue a UTF-8 sequence take no column. */
static unsigned int text_width(const char *s)
{
	unsigned int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* The byte offset of column @w of @s. */
static size_t byte_at(const char *s, unsigned int w)
{
	size_t i = 0;

	while (s[i] && w) {
		for (i++; ((unsigned char)s[i] & 0xc0) == 0x80; i++)
			;
		w--;
	}
	return i;
}

static const char *ellipsis(void)
{
	const char *l = getenv("LC_ALL");

	if (!l || !*l)
		l = getenv("LC_CTYPE");
	if (!l || !*l)
		l = getenv("LANG");
	return l && (strcasestr(l, "utf-8") || strcasestr(l, "utf8")) ? "\u2026" : "~";
}

/* @s in exactly @w columns: cut with an ellipsis, padded. */
static void put_cell(FILE *f, const char *s, unsigned int w, bool cut,
		     bool left_cut, bool right, bool pad)
{
	unsigned int tw = text_width(s);

	if (cut && tw > w) {
		if (left_cut)
			fprintf(f, "%s%s", ellipsis(), s + byte_at(s, tw - w + 1));
		else
			fprintf(f, "%.*s%s", (int)byte_at(s, w - 1), s, ellipsis());
		return;
	}
	if (right && pad)
		fprintf(f, "%*s", (int)(w - tw), "");
	fputs(s, f);
	if (!right && pad)
		fprintf(f, "%*s", (int)(w - tw), "");
}

int cli_table_add(struct cli_table *t, char **cells)
{
	char **tmp;
	size_t i;

	if (t->nrows == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 256;
		tmp = realloc(t->cells, t->alloc * t->ncols * sizeof(*tmp));
		if (!tmp)
			return -1;
		t->cells = tmp;
	}
	for (i = 0; i < t->ncols; i++)
		t->cells[t->nrows * t->ncols + i] = cells[i];
	t->nrows++;
	return 0;
}

void cli_table_free(struct cli_table *t)
{
	size_t i;

	for (i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
	t->nrows = t->alloc = 0;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/*
 * Column @c's width: the widest cell (or @header's name) when nothing is
 * cut; when the lines must be cut, the 95th percentile, so that a few
 * long names do not squeeze the rest.
 */
static unsigned int column_width(const struct cli_table *t, size_t c, bool tty,
				 bool header)
{
	unsigned int *w = malloc((t->nrows + 1) * sizeof(*w)), r;
	size_t i;

	if (!w)
		return 8;
	for (i = 0; i < t->nrows; i++)
		w[i] = text_width(t->cells[i * t->ncols + c]);
	w[t->nrows] = header ? text_width(t->cols[c].name) : 0;
	qsort(w, t->nrows + 1, sizeof(*w), cmp_uint);
	r = tty ? w[(t->nrows * 95) / 100] : w[t->nrows];
	if (tty && r < text_width(t->cols[c].name))
		r = text_width(t->cols[c].name);
	free(w);
	/* piped output keeps the caps it always had (the bytes scripts read) */
	return (tty || !header) && t->cols[c].cap && r > t->cols[c].cap ? t->cols[c].cap : r;
}

/* The widest line the rows (and @header) make, nothing cut. */
static unsigned int natural_width(const struct cli_table *t, bool header)
{
	unsigned int total = 0, w, m;
	size_t c, r;

	for (c = 0; c < t->ncols; c++) {
		m = header ? text_width(t->cols[c].name) : 0;
		for (r = 0; r < t->nrows; r++) {
			w = text_width(t->cells[r * t->ncols + c]);
			m = w > m ? w : m;
		}
		total += m + (c + 1 < t->ncols);
	}
	return total;
}

/*
 * Print the rows; @width 0: nothing cut; @header: the column names first.
 * A table whose longest line fits in @width is printed whole.
 */
void cli_table_print(const struct cli_table *t, FILE *f, unsigned int width,
		     bool header)
{
	unsigned int w[16] = { 0 }, fixed = 0, last;
	size_t c, r, n = t->ncols < 16 ? t->ncols : 16, widest;
	bool cut;

	if (width && natural_width(t, header) <= width)
		width = 0;
	cut = width > 0;
	/* the other columns whole when the last alone can be cut enough */
	for (c = 0; cut && c + 1 < n; c++) {
		w[c] = column_width(t, c, false, header);
		fixed += w[c] + 1;
	}
	if (!cut || fixed + width * 3 / 8 > width) {
		for (c = 0, fixed = 0; c + 1 < n; c++) {
			w[c] = column_width(t, c, cut, header);
			fixed += w[c] + 1;
		}
	}
	while (width && fixed + width * 3 / 8 > width && n > 1) { /* the last: 3/8 */
		for (c = 0, widest = 0; c + 1 < n; c++)
			if (w[c] > w[widest])
				widest = c;
		if (w[widest] <= 6)
			break;
		w[widest]--;
		fixed--;
	}
	last = width > fixed ? width - fixed : 1;
	for (r = header ? 0 : 1; r <= t->nrows; r++) {
		for (c = 0; c < n; c++) {
			const char *s = r ? t->cells[(r - 1) * t->ncols + c] : t->cols[c].name;

			put_cell(f, s, c + 1 < n ? w[c] : last, cut,
				 t->cols[c].left_cut, t->cols[c].right, c + 1 < n);
			fputc(c + 1 < n ? ' ' : '\n', f);
		}
	}
}

/* As a command prints a table: the header rule, --full, --no-legend. */
void cli_table_show(const struct cli_table *t, const struct cli_opts *opts, FILE *f)
{
	unsigned int width = cli_output_width();

	cli_table_print(t, f, opts->full ? 0 : width, width > 0 && !opts->no_legend);
}
