/*
 * output.c — psql-style printing of query results and errors for the shell.
 *
 * Reproduces the output of psql 15 (src/fe_utils/print.c, border 1, ascii
 * line style) for the formats the shell offers:
 *
 *   aligned     header centred, "-" rule with "-+-" joints, text left- and
 *               numbers right-aligned, "+" marks a value that continues on
 *               the next line, footer "(N rows)", then a blank line
 *   unaligned   -A: fields joined by the field separator, no padding
 *   tuples-only -t: no header, no footer
 *   expanded    \x: "-[ RECORD n ]" blocks of "name | value" lines
 *   csv         --csv: RFC 4180 with psql's quoting rules, header unless -t
 *
 * Cell text is laid out as psql's pg_wcsformat does: newlines split a value
 * into lines, tabs expand to the next multiple of 8 columns, "\r" shows as
 * the two characters \r, other ASCII controls as \xNN, C1 controls as
 * \uNNNN.  Display width counts East Asian wide characters as 2 and
 * combining marks as 0.
 *
 * Errors print as libpq's default verbosity: "ERROR:  msg", then when the
 * error has a position the "LINE n: " excerpt and a caret under the
 * position (reportErrorPosition in fe-protocol3.c: lines wider than 60
 * columns are cut around the position with "..."), then DETAIL and HINT.
 *
 * INTERFACE ROUTINES
 *   output_print_table(out, t, opts)
 *   output_print_error(out, e, severity, query, prefix)
 *   output_text_width(s, n)
 *   output_sink_init / output_sink_reset / output_sink_dispose
 *
 * Invariants: printing never fails and never reads past a cell's NUL;
 * invalid UTF-8 bytes count as one column each.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "main/shell.h"
#include "types/text.h"

/* ---- display width --------------------------------------------------- */

typedef struct Range {
	uint32_t lo, hi;
} Range;

/* Zero-width: combining marks and format characters (main blocks). */
static const Range zero_width[] = {
	{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x05BF, 0x05BF},
	{0x05C1, 0x05C2}, {0x05C4, 0x05C5}, {0x05C7, 0x05C7}, {0x0610, 0x061A},
	{0x064B, 0x065F}, {0x0670, 0x0670}, {0x06D6, 0x06DC}, {0x06DF, 0x06E4},
	{0x06E7, 0x06E8}, {0x06EA, 0x06ED}, {0x0900, 0x0902}, {0x093A, 0x093A},
	{0x093C, 0x093C}, {0x0941, 0x0948}, {0x094D, 0x094D}, {0x0951, 0x0957},
	{0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E}, {0x1AB0, 0x1AFF},
	{0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x202A, 0x202E}, {0x2060, 0x2064},
	{0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF},
	{0xE0100, 0xE01EF},
};

/* East Asian Wide and Fullwidth. */
static const Range wide[] = {
	{0x1100, 0x115F}, {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23EC},
	{0x23F0, 0x23F0}, {0x23F3, 0x23F3}, {0x25FD, 0x25FE}, {0x2614, 0x2615},
	{0x2648, 0x2653}, {0x267F, 0x267F}, {0x2693, 0x2693}, {0x26A1, 0x26A1},
	{0x26AA, 0x26AB}, {0x26BD, 0x26BE}, {0x26C4, 0x26C5}, {0x26CE, 0x26CE},
	{0x26D4, 0x26D4}, {0x26EA, 0x26EA}, {0x26F2, 0x26F3}, {0x26F5, 0x26F5},
	{0x26FA, 0x26FA}, {0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B},
	{0x2728, 0x2728}, {0x274C, 0x274C}, {0x274E, 0x274E}, {0x2753, 0x2755},
	{0x2757, 0x2757}, {0x2795, 0x2797}, {0x27B0, 0x27B0}, {0x27BF, 0x27BF},
	{0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55}, {0x2E80, 0x303E},
	{0x3041, 0x33FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA000, 0xA4CF},
	{0xA960, 0xA97F}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFE10, 0xFE19},
	{0xFE30, 0xFE6F}, {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6}, {0x16FE0, 0x16FE4},
	{0x17000, 0x18CFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
	{0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F64F},
	{0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F9FF}, {0x1FA70, 0x1FAFF},
	{0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

static bool
in_ranges(uint32_t c, const Range *r, size_t n)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c < r[mid].lo)
			hi = mid;
		else if (c > r[mid].hi)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

/* Width of code point c: -1 control, 0 combining, 1 or 2. */
static int
ucs_width(uint32_t c)
{
	if (c == 0)
		return 0;
	if (c < 0x20 || (c >= 0x7F && c < 0xA0))
		return -1;
	if (c < 0x300)
		return 1;
	if (in_ranges(c, zero_width, sizeof zero_width / sizeof zero_width[0]))
		return 0;
	if (in_ranges(c, wide, sizeof wide / sizeof wide[0]))
		return 2;
	return 1;
}

/* Decode one UTF-8 character of s[0..n); returns its byte length (>= 1).
 * An invalid sequence decodes as one byte with *cp = 0xFFFD-like width 1. */
static int
utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char b = s[0];
	int len, i;
	uint32_t c;

	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	if ((b & 0xE0) == 0xC0) {
		len = 2;
		c = b & 0x1F;
	} else if ((b & 0xF0) == 0xE0) {
		len = 3;
		c = b & 0x0F;
	} else if ((b & 0xF8) == 0xF0) {
		len = 4;
		c = b & 0x07;
	} else {
		*cp = 0xFFFD;
		return 1;
	}
	if ((size_t)len > n) {
		*cp = 0xFFFD;
		return 1;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80) {
			*cp = 0xFFFD;
			return 1;
		}
		c = (c << 6) | (s[i] & 0x3F);
	}
	*cp = c;
	return len;
}

int
output_text_width(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	int w = 0;

	while (i < n) {
		uint32_t c;
		int len = utf8_next(p + i, n - i, &c);
		int cw = ucs_width(c);
		/* controls print as \xNN (ASCII) or \uNNNN, as layout() does */
		w += cw < 0 ? (c < 0x80 ? 4 : 6) : cw;
		i += (size_t)len;
	}
	return w;
}

/* ---- cell layout (pg_wcsformat) ----------------------------------------- */

typedef struct Line {
	const char *s;
	int width;
} Line;

typedef struct Cell {
	Line *lines;
	int nlines;
	int width;   /* widest line */
} Cell;

/* Lay text s out into display lines, allocated in a. */
static void
layout(Arena *a, const char *s, Cell *out)
{
	size_t n = strlen(s), i = 0, cap = 1, nl = 0;
	char *buf, *bp;
	int lw = 0;
	Line *lines;

	/* output size: a tab grows by at most 7 bytes, \r or \xNN by at most
	 * 3, a 2-byte C1 control (lead byte 0xC2) by 4 as \uNNNN */
	size_t extra = 0;
	for (size_t k = 0; k < n; k++) {
		unsigned char b = (unsigned char)s[k];
		cap += b == '\n';
		if (b < 0x20 || b == 0x7F)
			extra += 7;
		else if (b == 0xC2)
			extra += 4;
	}
	buf = arena_alloc(a, n + extra + 1);
	lines = ARENA_ARRAY(a, Line, cap);
	bp = buf;
	lines[0].s = bp;
	out->width = 0;
	while (i < n) {
		uint32_t c;
		int len = utf8_next((const unsigned char *)s + i, n - i, &c);
		int w = ucs_width(c);

		if (c == '\n') {
			*bp++ = '\0';
			lines[nl].width = lw;
			if (lw > out->width)
				out->width = lw;
			nl++;
			lines[nl].s = bp;
			lw = 0;
		} else if (c == '\t') {
			do {
				*bp++ = ' ';
				lw++;
			} while (lw % 8 != 0);
		} else if (c == '\r') {
			*bp++ = '\\';
			*bp++ = 'r';
			lw += 2;
		} else if (w < 0 && c < 0x80) {
			bp += sprintf(bp, "\\x%02X", (unsigned)c);
			lw += 4;
		} else if (w < 0) {
			bp += sprintf(bp, "\\u%04X", (unsigned)c);
			lw += 6;
		} else {
			memcpy(bp, s + i, (size_t)len);
			bp += len;
			lw += w;
		}
		i += (size_t)len;
	}
	*bp = '\0';
	lines[nl].width = lw;
	if (lw > out->width)
		out->width = lw;
	out->lines = lines;
	out->nlines = (int)nl + 1;
}

static void
spaces(FILE *out, int n)
{
	while (n-- > 0)
		fputc(' ', out);
}

static void
dashes(FILE *out, int n)
{
	while (n-- > 0)
		fputc('-', out);
}

static void
footer(FILE *out, const PrintTable *t)
{
	fprintf(out, "(%llu %s)\n", (unsigned long long)t->nrows,
		t->nrows == 1 ? "row" : "rows");
}

/* ---- aligned --------------------------------------------------------------- */

static void
print_aligned(FILE *out, const PrintTable *t, const PrintOptions *o, Arena *a)
{
	int nc = t->ncols;
	int *width = ARENA_ARRAY(a, int, nc > 0 ? nc : 1);
	Cell *hdr = ARENA_ARRAY(a, Cell, nc > 0 ? nc : 1);
	Cell *row = ARENA_ARRAY(a, Cell, nc > 0 ? nc : 1);
	int *cur = ARENA_ARRAY(a, int, nc > 0 ? nc : 1);
	bool *nlwrap = ARENA_ARRAY(a, bool, nc > 0 ? nc : 1);
	Arena *ra = arena_new(0);   /* per-row scratch */
	int total;

	for (int j = 0; j < nc; j++) {
		layout(a, t->headers[j], &hdr[j]);
		width[j] = hdr[j].width;
	}
	for (uint64_t r = 0; r < t->nrows; r++)
		for (int j = 0; j < nc; j++) {
			const char *s = t->cells[r * (uint64_t)nc + (uint64_t)j];
			int w = 0, lw = 0;
			/* cheap width pass; layout() is done again when printing */
			for (const char *p = s; *p; p++)
				if (*p == '\n' || *p == '\t' || *p == '\r')
					goto slow;
			w = output_text_width(s, strlen(s));
			if (w > width[j])
				width[j] = w;
			continue;
slow:
			{
				Cell c;
				layout(ra, s, &c);
				lw = c.width;
				arena_reset(ra);
			}
			if (lw > width[j])
				width[j] = lw;
		}

	if (t->title && !o->tuples_only) {
		int tw = output_text_width(t->title, strlen(t->title));
		total = nc > 0 ? nc * 3 - 1 : 0;
		for (int j = 0; j < nc; j++)
			total += width[j];
		if (tw >= total)
			fprintf(out, "%s\n", t->title);
		else {
			spaces(out, (total - tw) / 2);
			fprintf(out, "%s\n", t->title);
		}
	}

	if (!o->tuples_only) {
		int remaining = nc;
		for (int j = 0; j < nc; j++)
			cur[j] = 0;
		for (int line = 0; remaining > 0; line++) {
			for (int j = 0; j < nc; j++) {
				fputc(' ', out);
				if (cur[j] >= 0) {
					Line *l = &hdr[j].lines[line];
					int nb = width[j] - l->width;
					spaces(out, nb / 2);
					fputs(l->s, out);
					spaces(out, (nb + 1) / 2);
					if (line + 1 >= hdr[j].nlines) {
						cur[j] = -1;
						remaining--;
					}
				} else
					spaces(out, width[j]);
				fputc(cur[j] >= 0 ? '+' : ' ', out);
				if (j < nc - 1)
					fputc('|', out);
			}
			fputc('\n', out);
		}
		fputc('-', out);
		for (int j = 0; j < nc; j++) {
			dashes(out, width[j]);
			if (j < nc - 1)
				fputs("-+-", out);
		}
		fputs("-\n", out);
	}

	for (uint64_t r = 0; nc > 0 && r < t->nrows; r++) {
		bool more;
		arena_reset(ra);
		for (int j = 0; j < nc; j++) {
			layout(ra, t->cells[r * (uint64_t)nc + (uint64_t)j], &row[j]);
			cur[j] = 0;
			nlwrap[j] = false;
		}
		do {
			more = false;
			for (int j = 0; j < nc; j++) {
				bool last = j == nc - 1;
				bool right = t->right_align && t->right_align[j];
				int chars = width[j];

				fputc(' ', out);
				if (cur[j] >= row[j].nlines) {
					if (!last)
						spaces(out, width[j]);
				} else {
					Line *l = &row[j].lines[cur[j]];
					chars = l->width;
					if (right) {
						spaces(out, width[j] - chars);
						fputs(l->s, out);
					} else
						fputs(l->s, out);
					cur[j]++;
					if (cur[j] < row[j].nlines)
						more = true;
				}
				nlwrap[j] = cur[j] < row[j].nlines && cur[j] != 0;
				if (!right && (!last || nlwrap[j]))
					spaces(out, width[j] - chars);
				if (nlwrap[j])
					fputc('+', out);
				else if (!last)
					fputc(' ', out);
				if (!last)
					fputc('|', out);
			}
			fputc('\n', out);
		} while (more);
	}

	arena_free(ra);
	if (!o->tuples_only && t->footer)
		footer(out, t);
	fputc('\n', out);
}

/* The "-[ RECORD n ]---+---" line of expanded output (border 1). */
static void
record_line(FILE *out, uint64_t record, int hwidth, int dwidth)
{
	int reclen = 0;

	fputc('-', out);
	if (record)
		reclen = fprintf(out, "[ RECORD %llu ]", (unsigned long long)record);
	reclen++;
	for (int i = reclen; i < hwidth; i++)
		fputc('-', out);
	reclen -= hwidth;
	if (reclen-- <= 0)
		fputc('-', out);
	if (reclen-- <= 0)
		fputc('+', out);
	if (reclen-- <= 0)
		fputc('-', out);
	if (reclen < 0)
		reclen = 0;
	for (int i = reclen; i < dwidth; i++)
		fputc('-', out);
	fputc('\n', out);
}

static void
print_expanded(FILE *out, const PrintTable *t, const PrintOptions *o, Arena *a)
{
	int nc = t->ncols, hwidth = 0, dwidth = 0;
	bool dmulti = false;
	Cell *hdr = ARENA_ARRAY(a, Cell, nc > 0 ? nc : 1);

	if (t->nrows == 0 || nc == 0) {
		if (!o->tuples_only && t->footer)
			footer(out, t);
		fputc('\n', out);
		return;
	}
	if (t->title && !o->tuples_only)
		fprintf(out, "%s\n", t->title);
	for (int j = 0; j < nc; j++) {
		layout(a, t->headers[j], &hdr[j]);
		if (hdr[j].width > hwidth)
			hwidth = hdr[j].width;
	}
	for (uint64_t i = 0; i < t->nrows * (uint64_t)nc; i++) {
		Cell c;
		layout(a, t->cells[i], &c);
		if (c.width > dwidth)
			dwidth = c.width;
		if (c.nlines > 1)
			dmulti = true;
	}
	for (uint64_t r = 0; r < t->nrows; r++) {
		if (!o->tuples_only)
			record_line(out, r + 1, hwidth, dwidth);
		else if (r != 0)
			record_line(out, 0, hwidth, dwidth);
		for (int j = 0; j < nc; j++) {
			Cell d;
			int hl = 0, dl = 0;
			bool hdone = false, ddone = false;

			layout(a, t->cells[r * (uint64_t)nc + (uint64_t)j], &d);
			while (!hdone || !ddone) {
				if (!hdone) {
					Line *l = &hdr[j].lines[hl];
					fputs(l->s, out);
					spaces(out, hwidth - l->width);
					if (hl + 1 < hdr[j].nlines) {
						fputc('+', out);
						hl++;
					} else {
						fputc(' ', out);
						hdone = true;
					}
				} else
					spaces(out, hwidth + 1);
				fputc('|', out);
				if (!ddone) {
					Line *l = &d.lines[dl];
					fputc(' ', out);
					fputs(l->s, out);
					if (dl + 1 < d.nlines) {
						if (dmulti) {
							spaces(out, dwidth - l->width);
							fputc('+', out);
						}
						dl++;
					} else
						ddone = true;
				}
				fputc('\n', out);
			}
		}
	}
	fputc('\n', out);
}

/* ---- unaligned -------------------------------------------------------------- */

static void
print_unaligned(FILE *out, const PrintTable *t, const PrintOptions *o)
{
	const char *sep = o->field_sep ? o->field_sep : "|";
	bool need_nl = false;
	int nc = t->ncols;

	if (o->expanded) {
		/* psql's print_unaligned_vertical */
		if (t->title && !o->tuples_only) {
			fputs(t->title, out);
			need_nl = true;
		}
		for (uint64_t r = 0; r < t->nrows; r++)
			for (int j = 0; j < nc; j++) {
				if (need_nl) {
					fputs(j == 0 ? "\n\n" : "\n", out);
					need_nl = false;
				} else if (j > 0)
					fputc('\n', out);
				fprintf(out, "%s%s%s", t->headers[j], sep,
					t->cells[r * (uint64_t)nc + (uint64_t)j]);
				if (j == nc - 1)
					need_nl = true;
			}
		if (need_nl)
			fputc('\n', out);
		return;
	}
	if (t->title && !o->tuples_only) {
		fputs(t->title, out);
		fputc('\n', out);
	}
	if (!o->tuples_only) {
		for (int j = 0; j < nc; j++) {
			if (j)
				fputs(sep, out);
			fputs(t->headers[j], out);
		}
		need_nl = true;
	}
	for (uint64_t r = 0; nc > 0 && r < t->nrows; r++) {
		if (need_nl)
			fputc('\n', out);
		for (int j = 0; j < nc; j++) {
			if (j)
				fputs(sep, out);
			fputs(t->cells[r * (uint64_t)nc + (uint64_t)j], out);
		}
		need_nl = true;
	}
	if (!o->tuples_only && t->footer) {
		if (need_nl)
			fputc('\n', out);
		footer(out, t);
		need_nl = false;
	}
	if (need_nl)
		fputc('\n', out);
}

/* ---- csv (psql's print_csv_text / print_csv_vertical) ---------------------- */

static void
csv_field(FILE *out, const char *s, char sep)
{
	if (strchr(s, sep) || strcspn(s, "\r\n\"") != strlen(s) || strcmp(s, "\\.") == 0 ||
	    sep == '\\' || sep == '.') {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else
		fputs(s, out);
}

static void
print_csv(FILE *out, const PrintTable *t, const PrintOptions *o)
{
	const char sep = ',';
	int nc = t->ncols;

	if (o->expanded) {
		for (uint64_t r = 0; r < t->nrows; r++)
			for (int j = 0; j < nc; j++) {
				csv_field(out, t->headers[j], sep);
				fputc(sep, out);
				csv_field(out, t->cells[r * (uint64_t)nc + (uint64_t)j], sep);
				fputc('\n', out);
			}
		return;
	}
	if (!o->tuples_only) {
		for (int j = 0; j < nc; j++) {
			if (j)
				fputc(sep, out);
			csv_field(out, t->headers[j], sep);
		}
		fputc('\n', out);
	}
	for (uint64_t r = 0; nc > 0 && r < t->nrows; r++)
		for (int j = 0; j < nc; j++) {
			csv_field(out, t->cells[r * (uint64_t)nc + (uint64_t)j], sep);
			fputc(j == nc - 1 ? '\n' : sep, out);
		}
}

/* Width of the aligned table, for \x auto. */
static int
aligned_width(const PrintTable *t, Arena *a)
{
	int nc = t->ncols, total = nc > 0 ? nc * 3 - 1 : 0;

	for (int j = 0; j < nc; j++) {
		Cell c;
		int w;
		layout(a, t->headers[j], &c);
		w = c.width;
		for (uint64_t r = 0; r < t->nrows; r++) {
			layout(a, t->cells[r * (uint64_t)nc + (uint64_t)j], &c);
			if (c.width > w)
				w = c.width;
			arena_reset(a);
		}
		total += w;
	}
	return total;
}

/* Columns of the terminal out writes to; 0 when it is not a terminal. */
static int
terminal_columns(FILE *out)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");

	if (!isatty(fileno(out)))
		return 0;
	if (env && atoi(env) > 0)
		return atoi(env);
	if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0)
		return ws.ws_col;
	return 0;
}

void
output_print_table(FILE *out, const PrintTable *t, const PrintOptions *o)
{
	Arena *a = arena_new(0);

	if (o->expanded_auto && !o->expanded && !o->csv && !o->unaligned && t->ncols > 1) {
		int cols = terminal_columns(out);
		if (cols > 0 && aligned_width(t, a) > cols) {
			PrintOptions x = *o;
			x.expanded = true;
			arena_reset(a);
			print_expanded(out, t, &x, a);
			arena_free(a);
			return;
		}
		arena_reset(a);
	}
	if (o->csv)
		print_csv(out, t, o);
	else if (o->unaligned)
		print_unaligned(out, t, o);
	else if (o->expanded)
		print_expanded(out, t, o, a);
	else
		print_aligned(out, t, o, a);
	arena_free(a);
}

/* ---- errors ----------------------------------------------------------------- */

#define DISPLAY_SIZE 60
#define MIN_RIGHT_CUT 10

/* The "LINE n: ..." excerpt and caret for 1-based character position loc
 * in query (libpq's reportErrorPosition, re-derived). */
static void
error_position(FILE *out, const char *query, int loc)
{
	size_t n = strlen(query);
	int *qidx, *scr, cno = 0, ibeg = 0, iend = -1, loc_line = 1, scroff = 0;
	size_t q = 0;
	char *w, prefix[32];
	bool beg_trunc = false, end_trunc = false;
	int plen;

	loc--;
	if (loc < 0)
		return;
	w = xstrdup(query);
	qidx = xcalloc(n + 2, sizeof(int));
	scr = xcalloc(n + 2, sizeof(int));
	for (cno = 0; w[q] != '\0'; cno++) {
		char ch = w[q];
		uint32_t c;
		int len, cw;

		qidx[cno] = (int)q;
		scr[cno] = scroff;
		if (ch == '\t')
			w[q] = ' ';
		else if (ch == '\r' || ch == '\n') {
			if (cno < loc) {
				if (ch == '\r' || cno == 0 || w[qidx[cno - 1]] != '\r')
					loc_line++;
				ibeg = cno + 1;
			} else {
				iend = cno;
				break;
			}
		}
		len = utf8_next((const unsigned char *)w + q, n - q, &c);
		cw = ucs_width(c);
		scroff += cw <= 0 ? 1 : cw;
		q += (size_t)len;
	}
	if (iend < 0) {
		iend = cno;
		qidx[iend] = (int)q;
		scr[iend] = scroff;
	}
	if (loc <= cno) {
		if (scr[iend] - scr[ibeg] > DISPLAY_SIZE) {
			if (scr[ibeg] + DISPLAY_SIZE >= scr[loc] + MIN_RIGHT_CUT) {
				while (scr[iend] - scr[ibeg] > DISPLAY_SIZE)
					iend--;
				end_trunc = true;
			} else {
				while (scr[loc] + MIN_RIGHT_CUT < scr[iend]) {
					iend--;
					end_trunc = true;
				}
				while (scr[iend] - scr[ibeg] > DISPLAY_SIZE) {
					ibeg++;
					beg_trunc = true;
				}
			}
		}
		w[qidx[iend]] = '\0';
		plen = snprintf(prefix, sizeof prefix, "LINE %d: %s", loc_line,
				beg_trunc ? "..." : "");
		fprintf(out, "%s%s%s\n", prefix, w + qidx[ibeg], end_trunc ? "..." : "");
		spaces(out, plen + scr[loc] - scr[ibeg]);
		fputs("^\n", out);
	}
	free(scr);
	free(qidx);
	free(w);
}

void
output_print_error(FILE *out, const floe_error *e, const char *severity,
		   const char *query, const char *prefix)
{
	fprintf(out, "%s%s:  %s\n", prefix ? prefix : "", severity, e->message);
	if (e->position > 0 && query)
		error_position(out, query, e->position);
	if (e->detail[0])
		fprintf(out, "DETAIL:  %s\n", e->detail);
	if (e->hint[0])
		fprintf(out, "HINT:  %s\n", e->hint);
	/* psql's default SHOW_CONTEXT errors: the Where field of errors only */
	if (e->context[0] && strcmp(severity, "NOTICE") && strcmp(severity, "WARNING") &&
	    strcmp(severity, "INFO") && strcmp(severity, "LOG"))
		fprintf(out, "CONTEXT:  %s\n", e->context);
	fflush(out);
}

/* ---- result sink ------------------------------------------------------------ */

static int
sink_columns(void *ctx, int ncols, const char *const *names, const SqlType *types)
{
	OutputSink *os = ctx;

	if (os->cancel && *os->cancel)
		return 1;
	os->ncols = ncols;
	os->headers = ARENA_ARRAY(os->arena, const char *, ncols > 0 ? ncols : 1);
	os->right_align = ARENA_ARRAY(os->arena, bool, ncols > 0 ? ncols : 1);
	for (int j = 0; j < ncols; j++) {
		os->headers[j] = arena_strdup(os->arena, names[j] ? names[j] : "?column?");
		os->right_align[j] = type_is_numeric(types[j].id);
	}
	os->has_columns = true;
	os->nrows = 0;
	return 0;
}

static int
sink_batch(void *ctx, const Batch *b)
{
	OutputSink *os = ctx;
	uint64_t need = (os->nrows + b->count) * (uint64_t)os->ncols;

	if (os->cancel && *os->cancel)
		return 1;
	if (os->ncols == 0) {
		os->nrows += b->count;
		return 0;
	}
	if (need > os->cap) {
		uint64_t ncap = os->cap ? os->cap : 256;
		while (ncap < need)
			ncap *= 2;
		os->cells = arena_realloc(os->arena, os->cells, os->cap * sizeof(char *),
					  ncap * sizeof(char *));
		os->cap = ncap;
	}
	for (uint32_t i = 0; i < b->count; i++) {
		uint32_t row = b->sel ? b->sel[i] : i;
		for (int j = 0; j < os->ncols && j < b->ncols; j++) {
			size_t len;
			const char *s = vector_value_text(&b->cols[j], row, os->arena, &len);
			/* text with an embedded NUL prints up to it, as psql would */
			os->cells[os->nrows * (uint64_t)os->ncols + (uint64_t)j] =
				s ? s : (os->opts->null_display ? os->opts->null_display : "");
		}
		for (int j = b->ncols; j < os->ncols; j++)
			os->cells[os->nrows * (uint64_t)os->ncols + (uint64_t)j] = "";
		os->nrows++;
	}
	return 0;
}

static bool
tag_is_dml(const char *tag)
{
	return strncmp(tag, "INSERT", 6) == 0 || strncmp(tag, "UPDATE", 6) == 0 ||
	       strncmp(tag, "DELETE", 6) == 0 || strncmp(tag, "MERGE", 5) == 0;
}

static int
sink_complete(void *ctx, const char *tag)
{
	OutputSink *os = ctx;

	if (os->has_columns) {
		PrintTable t = {
			.ncols = os->ncols,
			.headers = os->headers,
			.right_align = os->right_align,
			.nrows = os->nrows,
			.cells = os->cells,
			.footer = !os->opts->no_footer,
		};
		output_print_table(os->out, &t, os->opts);
		if (tag && tag_is_dml(tag) && !os->opts->quiet)
			fprintf(os->out, "%s\n", tag);
	} else if (tag && tag[0] && !os->opts->quiet && !os->copy_out)
		/* psql prints no status after COPY TO STDOUT (mixed with data) */
		fprintf(os->out, "%s\n", tag);
	os->copy_out = false;
	fflush(os->out);
	os->results++;
	os->has_columns = false;
	os->ncols = 0;
	os->nrows = 0;
	os->cap = 0;
	os->cells = NULL;
	arena_reset(os->arena);
	return 0;
}

static void
sink_notice(void *ctx, const floe_error *n)
{
	OutputSink *os = ctx;
	const char *sev = floe_notice_severity(n);

	fflush(os->out);
	output_print_error(stderr, n, sev, NULL, os->notice_prefix);
}

/* ---- COPY TO STDOUT / FROM STDIN (psql's handleCopyOut / handleCopyIn) --- */

static int
sink_copy_out_begin(void *ctx, int ncols)
{
	OutputSink *os = ctx;
	(void)ncols;
	os->copy_out = !os->copy_out_file;   /* \copy to a file prints its tag */
	return 0;
}

static int
sink_copy_out_data(void *ctx, const char *data, size_t len)
{
	OutputSink *os = ctx;
	if (os->cancel && *os->cancel)
		return 1;
	return fwrite(data, 1, len, os->copy_out_file ? os->copy_out_file : os->out) == len ? 0 : 1;
}

static int
sink_copy_in_begin(void *ctx, int ncols)
{
	OutputSink *os = ctx;
	(void)ncols;
	os->copy_end = false;
	os->copy_active = true;
	free(os->copy_pending);
	os->copy_pending = NULL;
	os->copy_pending_len = os->copy_pending_off = 0;
	if (os->copy_prompt) {
		fprintf(stdout, "Enter data to be copied followed by a newline.\n"
			"End with a backslash and a period on a line by themselves, or an EOF signal.\n");
		fflush(stdout);
	}
	return 0;
}

static int
sink_copy_in_read(void *ctx, char *buf, size_t cap, size_t *len, floe_error *err)
{
	OutputSink *os = ctx;
	size_t n;

	*len = 0;
	if (os->cancel && *os->cancel)
		return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	if (os->copy_pending_off >= os->copy_pending_len) {
		ssize_t got;
		size_t lcap = 0;
		char *line = NULL;
		free(os->copy_pending);
		os->copy_pending = NULL;
		os->copy_pending_len = os->copy_pending_off = 0;
		if (os->copy_end || !os->copy_in)
			return FLOE_OK;
		if (os->copy_prompt) {
			fputs(">> ", stdout);
			fflush(stdout);
		}
		got = getline(&line, &lcap, os->copy_in);
		if (got < 0) {
			free(line);
			os->copy_end = true;
			return FLOE_OK;
		}
		if (os->copy_lineno)
			(*os->copy_lineno)++;
		if ((got == 2 || got == 3) && line[0] == '\\' && line[1] == '.' &&
		    (got == 2 || line[2] == '\n')) {
			free(line);
			os->copy_end = true;
			return FLOE_OK;
		}
		if (got > 0 && line[got - 1] != '\n') {   /* last line without newline */
			line = xrealloc(line, (size_t)got + 2);
			line[got++] = '\n';
			line[got] = 0;
		}
		os->copy_pending = line;
		os->copy_pending_len = (size_t)got;
	}
	n = os->copy_pending_len - os->copy_pending_off;
	if (n > cap)
		n = cap;
	memcpy(buf, os->copy_pending + os->copy_pending_off, n);
	os->copy_pending_off += n;
	*len = n;
	return FLOE_OK;
}

void
output_sink_init(OutputSink *os, FILE *out, const PrintOptions *opts)
{
	memset(os, 0, sizeof *os);
	os->out = out;
	os->opts = opts;
	os->arena = arena_new(0);
	os->sink.ctx = os;
	os->sink.columns = sink_columns;
	os->sink.batch = sink_batch;
	os->sink.complete = sink_complete;
	os->sink.notice = sink_notice;
	os->sink.copy_out_begin = sink_copy_out_begin;
	os->sink.copy_out_data = sink_copy_out_data;
	os->sink.copy_in_begin = sink_copy_in_begin;
	os->sink.copy_in_read = sink_copy_in_read;
}

/* Forget a partial result (after an error). */
void
output_sink_reset(OutputSink *os)
{
	os->copy_out = false;
	os->has_columns = false;
	os->ncols = 0;
	os->nrows = 0;
	os->cap = 0;
	os->cells = NULL;
	arena_reset(os->arena);
}

void
output_sink_dispose(OutputSink *os)
{
	if (os->arena)
		arena_free(os->arena);
	os->arena = NULL;
	free(os->copy_pending);
	os->copy_pending = NULL;
}

/* After a COPY FROM STDIN (failed or not): skip data lines the engine did
 * not read, up to "\." or EOF, as psql sends them all anyway. */
void
output_copy_finish(OutputSink *os)
{
	char buf[4096];
	size_t n;
	floe_error ignore;

	if (!os->copy_active)
		return;
	while (!os->copy_end && os->copy_in) {
		volatile int *c = os->cancel;
		os->cancel = NULL;
		if (sink_copy_in_read(os, buf, sizeof buf, &n, &ignore) != FLOE_OK || n == 0) {
			os->cancel = c;
			break;
		}
		os->cancel = c;
	}
	free(os->copy_pending);
	os->copy_pending = NULL;
	os->copy_pending_len = os->copy_pending_off = 0;
	os->copy_active = false;
}
