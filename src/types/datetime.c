/*
 * datetime.c — date, time, timestamp, timestamptz and interval: text input
 * and output, the session time zone, and calendar arithmetic.
 *
 * Implements datetime.h with PostgreSQL 15 semantics (utils/adt/datetime.c
 * DecodeDateTime/DecodeInterval/EncodeDateTime/EncodeInterval, date.c,
 * timestamp.c).  Output follows the thread's DateStyle (ISO, SQL, Postgres,
 * German with DMY/MDY/YMD: EncodeDateOnly / EncodeDateTime; the non-ISO
 * styles print the zone's abbreviation from the TZif types or the POSIX
 * footer, "" for a POSIX offset zone such as "+05:30"), and ambiguous
 * numeric dates ("01/02/2024") are read in DateStyle's field order.
 * IntervalStyle postgres.
 *
 * Input is tokenised into fields (number, date "y-m-d", time "h:m:s",
 * signed zone "+hh:mm", word) and the fields are then interpreted, like
 * PostgreSQL's ParseDateTime + DecodeDateTime, but covering the common forms
 * only: ISO dates, "m/d/y", "yyyymmdd", month names, "T" separators, am/pm,
 * BC/AD, numeric zones, UTC/Z/GMT, a few zone abbreviations and full zone
 * names, epoch/infinity/-infinity/allballs.  Intervals are decoded right to
 * left as DecodeInterval does (a unit word names the number to its left, a
 * bare number is seconds, a number before a time field is days), plus ISO
 * 8601 "P1Y2M3DT4H5M6S".
 *
 * The session time zone is per thread (a server thread runs one session at
 * a time; the engine installs each session's zone at statement start with
 * datetime_use_zone): UTC, a fixed offset, or a named
 * zone read from the system tzdata (TZif, RFC 8536, with its POSIX TZ
 * footer rule for instants after the last transition).  Loaded zones are
 * immutable, cached and never freed, so a DatetimeZone pointer stays valid
 * for the life of the process and conversions are thread-safe.
 * Local -> UTC follows PostgreSQL's DetermineTimeZoneOffset: in a
 * spring-forward gap the offset before the transition is used, in a
 * fall-back overlap the offset after it.
 *
 * INTERFACE ROUTINES: see datetime.h.
 *
 * Invariants: every finite timestamp produced lies in [TS_MIN_USECS,
 * TS_MAX_USECS] and every finite date in [DATE_MIN_DAYS, DATE_MAX_DAYS];
 * infinities are the int extremes and pass through arithmetic unchanged;
 * arithmetic never overflows silently (22008 instead).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <pthread.h>
#include <time.h>
#include "common/arena.h"
#include "types/datetime.h"

/* Bytes of s[0..n) quoted in an error message: at most 800, cut at a UTF-8
 * character boundary so the message stays valid UTF-8. */
static int
quote_len(const char *s, size_t n)
{
	if (n <= 800)
		return (int)n;
	n = 800;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	return (int)n;
}

/* ------------------------------------------------------------------ */
/* Calendar                                                            */
/* ------------------------------------------------------------------ */

static int64_t
floordiv(int64_t a, int64_t b)
{
	int64_t q = a / b;
	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

int64_t
datetime_days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = floordiv(y, 400);
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

void
datetime_civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	z += 719468;
	int64_t era = floordiv(z, 146097);
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

static bool
is_leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
days_in_month(int64_t y, int m)
{
	static const int dm[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	return m == 2 && is_leap(y) ? 29 : dm[m - 1];
}

bool
datetime_valid_civil(int64_t y, int m, int d)
{
	return m >= 1 && m <= 12 && d >= 1 && d <= days_in_month(y, m);
}

/* ------------------------------------------------------------------ */
/* Time zone                                                           */
/* ------------------------------------------------------------------ */

/*
 * Zones are read from the system tzdata (TZif files, RFC 8536) into
 * immutable Zone objects kept for the life of the process in a small cache
 * (guarded by a mutex; lookups after loading are lock-free reads of
 * immutable data, so conversions are thread-safe).  Instants after the last
 * transition follow the file's POSIX TZ footer rule.
 */

typedef struct PosixRule {
	bool has_dst;
	int32_t std_east, dst_east;
	int kind[2];             /* 'M', 'J', 'N' for start [0] and end [1] */
	int mon[2], week[2], wday[2], day[2];
	int32_t secs[2];         /* transition time of day (local, may exceed 24h) */
	char std_abbr[16], dst_abbr[16];   /* "CET", "CEST"; "<-03>" as "-03" */
} PosixRule;

typedef struct Zone {
	char name[128];
	bool fixed;
	int32_t fixed_east;
	int ntimes, ntypes;
	int64_t *times;          /* transition instants, UTC seconds, ascending */
	uint8_t *idx;            /* type index per transition */
	int32_t *type_east;      /* utoff per type */
	uint8_t *type_abbr;      /* per type: offset of its abbreviation in abbrs */
	char *abbrs;             /* the TZif abbreviation strings, NUL-terminated */
	int nabbrs;
	char fixed_abbr[16];     /* a fixed zone's abbreviation ("UTC", "-08", "") */
	bool has_rule;
	PosixRule rule;
	struct Zone *next;       /* cache chain */
} Zone;

static pthread_mutex_t zone_lock = PTHREAD_MUTEX_INITIALIZER;
static Zone *zone_cache;
static Zone zone_utc = { .name = "UTC", .fixed = true, .fixed_abbr = "UTC" };
/* The running session's zone, per thread (NULL: UTC).  A server thread
 * runs one session's statements at a time; the engine installs the
 * session's zone (datetime_use_zone) when each statement starts. */
static _Thread_local const Zone *cur_zone;
#define session_zone (cur_zone ? cur_zone : &zone_utc)

static uint32_t
be32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static int64_t
be64(const unsigned char *p)
{
	return (int64_t)(((uint64_t)be32(p) << 32) | be32(p + 4));
}

/* POSIX TZ offset "[+-]hh[:mm[:ss]]"; returns chars used or -1. */
static int
posix_hms(const char *s, int32_t *secs, bool sign_ok)
{
	const char *p = s;
	int sign = 1;
	if (sign_ok && (*p == '+' || *p == '-'))
		sign = *p++ == '-' ? -1 : 1;
	if (!isdigit((unsigned char)*p))
		return -1;
	int v[3] = { 0, 0, 0 };
	for (int k = 0; k < 3; k++) {
		int x = 0, nd = 0;
		while (isdigit((unsigned char)*p) && nd < 3)
			x = x * 10 + (*p++ - '0'), nd++;
		if (!nd)
			return -1;
		v[k] = x;
		if (k < 2 && *p == ':')
			p++;
		else
			break;
	}
	*secs = sign * (v[0] * 3600 + v[1] * 60 + v[2]);
	return (int)(p - s);
}

static int
posix_name(const char *s)
{
	const char *p = s;
	if (*p == '<') {
		while (*p && *p != '>')
			p++;
		return *p == '>' ? (int)(p - s + 1) : -1;
	}
	while (isalpha((unsigned char)*p))
		p++;
	return p - s >= 3 ? (int)(p - s) : -1;
}

static int
posix_date(const char *s, PosixRule *r, int k)
{
	const char *p = s;
	char *end;
	if (*p == 'M') {
		r->kind[k] = 'M';
		r->mon[k] = (int)strtol(p + 1, &end, 10);
		if (*end != '.')
			return -1;
		r->week[k] = (int)strtol(end + 1, &end, 10);
		if (*end != '.')
			return -1;
		r->wday[k] = (int)strtol(end + 1, &end, 10);
		if (r->mon[k] < 1 || r->mon[k] > 12 || r->week[k] < 1 || r->week[k] > 5 ||
		    r->wday[k] < 0 || r->wday[k] > 6)
			return -1;
	} else if (*p == 'J' || isdigit((unsigned char)*p)) {
		r->kind[k] = *p == 'J' ? 'J' : 'N';
		r->day[k] = (int)strtol(*p == 'J' ? p + 1 : p, &end, 10);
		if (r->day[k] < 0 || r->day[k] > 365)
			return -1;
	} else
		return -1;
	p = end;
	r->secs[k] = 7200;
	if (*p == '/') {
		int n = posix_hms(p + 1, &r->secs[k], true);
		if (n < 0)
			return -1;
		p += 1 + n;
	}
	return (int)(p - s);
}

/* The abbreviation of a POSIX TZ name of n chars ("<-03>" -> "-03"). */
static void
posix_abbr(const char *s, int n, char *out, size_t cap)
{
	if (*s == '<')
		s++, n -= 2;
	snprintf(out, cap, "%.*s", n < 0 ? 0 : n, s);
}

static bool
posix_parse(const char *s, PosixRule *r)
{
	int n;
	int32_t off;
	memset(r, 0, sizeof *r);
	if ((n = posix_name(s)) < 0)
		return false;
	posix_abbr(s, n, r->std_abbr, sizeof r->std_abbr);
	s += n;
	if ((n = posix_hms(s, &off, true)) < 0)
		return false;
	s += n;
	r->std_east = -off;
	if (!*s)
		return true;
	if ((n = posix_name(s)) < 0)
		return false;
	posix_abbr(s, n, r->dst_abbr, sizeof r->dst_abbr);
	s += n;
	r->has_dst = true;
	r->dst_east = r->std_east + 3600;
	if (*s && *s != ',') {
		if ((n = posix_hms(s, &off, true)) < 0)
			return false;
		s += n;
		r->dst_east = -off;
	}
	if (*s != ',')
		return false;   /* no rule: unsupported legacy default */
	if ((n = posix_date(s + 1, r, 0)) < 0)
		return false;
	s += 1 + n;
	if (*s != ',')
		return false;
	if ((n = posix_date(s + 1, r, 1)) < 0)
		return false;
	return s[1 + n] == '\0';
}

/* Local (wall) seconds of transition k of the rule in year y, as days*86400+secs. */
static int64_t
rule_local(const PosixRule *r, int k, int64_t y)
{
	int64_t day;
	if (r->kind[k] == 'M') {
		int64_t first = datetime_days_from_civil(y, r->mon[k], 1);
		int dow1 = (int)(((first % 7) + 7 + 4) % 7);   /* 0 = Sunday */
		int d = 1 + (r->wday[k] - dow1 + 7) % 7 + (r->week[k] - 1) * 7;
		while (d > days_in_month(y, r->mon[k]))
			d -= 7;
		day = first + d - 1;
	} else if (r->kind[k] == 'J') {
		int n = r->day[k] - 1;
		if (is_leap(y) && r->day[k] >= 60)
			n++;
		day = datetime_days_from_civil(y, 1, 1) + n;
	} else
		day = datetime_days_from_civil(y, 1, 1) + r->day[k];
	return day * 86400 + r->secs[k];
}

static int32_t
rule_offset(const PosixRule *r, int64_t t)
{
	if (!r->has_dst)
		return r->std_east;
	int64_t y;
	int m, d;
	datetime_civil_from_days(floordiv(t + r->std_east, 86400), &y, &m, &d);
	/* start is given in standard time, end in daylight time */
	int64_t start = rule_local(r, 0, y) - r->std_east;
	int64_t end = rule_local(r, 1, y) - r->dst_east;
	if (start < end)
		return (t >= start && t < end) ? r->dst_east : r->std_east;
	return (t >= end && t < start) ? r->std_east : r->dst_east;
}

static int32_t
zone_offset(const Zone *z, int64_t t)
{
	if (z->fixed)
		return z->fixed_east;
	if (z->ntimes == 0 || t < z->times[0]) {
		if (z->ntimes == 0 && z->has_rule)
			return rule_offset(&z->rule, t);
		/* before the first transition: the first non-DST type (RFC 8536
		 * says type 0; zic writes the LMT type there) */
		return z->ntypes ? z->type_east[0] : 0;
	}
	if (t >= z->times[z->ntimes - 1] && z->has_rule)
		return rule_offset(&z->rule, t);
	int lo = 0, hi = z->ntimes - 1;
	while (lo < hi) {   /* last i with times[i] <= t */
		int mid = (lo + hi + 1) / 2;
		if (z->times[mid] <= t)
			lo = mid;
		else
			hi = mid - 1;
	}
	return z->type_east[z->idx[lo]];
}

/* The zone's abbreviation at UTC second t ("CEST", "EST", "LMT", "-03";
 * "" for a POSIX offset such as "+05:30"), as PostgreSQL prints it in the
 * SQL, Postgres and German DateStyles. */
static const char *
type_abbr(const Zone *z, int type)
{
	if (!z->abbrs || type >= z->ntypes || z->type_abbr[type] >= z->nabbrs)
		return "";
	return z->abbrs + z->type_abbr[type];
}

static const char *
zone_abbr_at(const Zone *z, int64_t t)
{
	if (z->fixed)
		return z->fixed_abbr;
	if (z->ntimes == 0 || t < z->times[0]) {
		if (z->ntimes == 0 && z->has_rule)
			return z->rule.has_dst && rule_offset(&z->rule, t) == z->rule.dst_east ?
				z->rule.dst_abbr : z->rule.std_abbr;
		return type_abbr(z, 0);
	}
	if (t >= z->times[z->ntimes - 1] && z->has_rule)
		return z->rule.has_dst && rule_offset(&z->rule, t) == z->rule.dst_east ?
			z->rule.dst_abbr : z->rule.std_abbr;
	int lo = 0, hi = z->ntimes - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (z->times[mid] <= t)
			lo = mid;
		else
			hi = mid - 1;
	}
	return type_abbr(z, z->idx[lo]);
}

/* Parse a TZif image; NULL when it is not one we understand. */
static Zone *
tzif_parse(const unsigned char *b, size_t n, const char *name)
{
	if (n < 44 || memcmp(b, "TZif", 4) != 0)
		return NULL;
	const unsigned char *p = b;
	size_t left = n;
	int tsize = 4;
	if (b[4] >= '2') {
		/* skip the v1 block */
		uint32_t isut = be32(b + 20), isstd = be32(b + 24), leap = be32(b + 28);
		uint32_t tc = be32(b + 32), ty = be32(b + 36), ch = be32(b + 40);
		uint64_t v1 = 44 + (uint64_t)tc * 5 + (uint64_t)ty * 6 + ch + (uint64_t)leap * 8 + isstd + isut;
		if (v1 + 44 > n)
			return NULL;
		p = b + v1;
		left = n - v1;
		if (memcmp(p, "TZif", 4) != 0)
			return NULL;
		tsize = 8;
	}
	uint32_t isut = be32(p + 20), isstd = be32(p + 24), leap = be32(p + 28);
	uint32_t tc = be32(p + 32), ty = be32(p + 36), ch = be32(p + 40);
	if (tc > 100000 || ty == 0 || ty > 256 || ch > 100000 || leap > 100000 || isstd > ty || isut > ty)
		return NULL;
	uint64_t need = 44 + (uint64_t)tc * (tsize + 1) + (uint64_t)ty * 6 + ch +
			(uint64_t)leap * (tsize + 4) + isstd + isut;
	if (need > left)
		return NULL;
	Zone *z = xcalloc(1, sizeof *z);
	snprintf(z->name, sizeof z->name, "%s", name);
	z->ntimes = (int)tc;
	z->ntypes = (int)ty;
	z->times = xmalloc((tc ? tc : 1) * sizeof(int64_t));
	z->idx = xmalloc(tc ? tc : 1);
	z->type_east = xmalloc(ty * sizeof(int32_t));
	const unsigned char *q = p + 44;
	for (uint32_t i = 0; i < tc; i++, q += tsize)
		z->times[i] = tsize == 8 ? be64(q) : (int32_t)be32(q);
	for (uint32_t i = 0; i < tc; i++) {
		z->idx[i] = q[i];
		if (q[i] >= ty)
			goto bad;
	}
	q += tc;
	z->type_abbr = xmalloc(ty);
	for (uint32_t i = 0; i < ty; i++, q += 6) {
		z->type_east[i] = (int32_t)be32(q);
		z->type_abbr[i] = q[5];
		/* RFC 8536: -89999 .. 93599 */
		if (z->type_east[i] < -89999 || z->type_east[i] > 93599)
			goto bad;
	}
	/* q: the abbreviation characters (ch bytes), kept NUL-terminated */
	z->abbrs = xmalloc((size_t)ch + 1);
	memcpy(z->abbrs, q, ch);
	z->abbrs[ch] = '\0';
	z->nabbrs = (int)ch;
	for (uint32_t i = 1; i < tc; i++)
		if (z->times[i] <= z->times[i - 1])
			goto bad;
	if (tsize == 8) {
		const unsigned char *f = p + need, *e = b + n;
		if (f < e && *f == '\n') {
			const unsigned char *nl = memchr(f + 1, '\n', (size_t)(e - f - 1));
			if (nl && nl - f - 1 < 100) {
				char rule[100];
				memcpy(rule, f + 1, (size_t)(nl - f - 1));
				rule[nl - f - 1] = '\0';
				z->has_rule = rule[0] && posix_parse(rule, &z->rule) &&
					      z->rule.std_east > -90000 && z->rule.std_east < 93600 &&
					      z->rule.dst_east > -90000 && z->rule.dst_east < 93600;
			}
		}
	}
	return z;
bad:
	free(z->times);
	free(z->idx);
	free(z->type_east);
	free(z->type_abbr);
	free(z->abbrs);
	free(z);
	return NULL;
}

/* Test hook: does a TZif image parse?  (Bad images must fail cleanly.) */
bool
datetime__tzif_ok(const unsigned char *b, size_t n)
{
	Zone *z = tzif_parse(b, n, "test");
	if (!z)
		return false;
	/* exercise the lookups over the whole range */
	for (int64_t t = -INT64_C(100000000000); t < INT64_C(100000000000); t += INT64_C(7777777777)) {
		(void)zone_offset(z, t);
		(void)zone_abbr_at(z, t);
	}
	free(z->times);
	free(z->idx);
	free(z->type_east);
	free(z->type_abbr);
	free(z->abbrs);
	free(z);
	return true;
}

static Zone *
zone_read(const char *file, const char *name)
{
	char path[300];
	if (!*file || file[0] == '/' || strstr(file, "..") || strlen(file) > 200)
		return NULL;
	snprintf(path, sizeof path, "/usr/share/zoneinfo/%s", file);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	unsigned char *buf = xmalloc(1 << 20);
	size_t n = fread(buf, 1, 1 << 20, f);
	fclose(f);
	Zone *z = tzif_parse(buf, n, name);
	free(buf);
	return z;
}

/* Find or load a named zone (case-insensitive as PostgreSQL). */
/* Resolve a zone name case-insensitively against the tzdata tree, one
 * path component at a time ("us/eastern" -> "US/Eastern"); false if absent. */
static bool
zone_resolve(const char *name, char *out, size_t cap)
{
	char path[300] = "/usr/share/zoneinfo";
	size_t o = 0;
	const char *p = name;
	if (!*name || name[0] == '/' || strstr(name, ".."))
		return false;
	out[0] = '\0';
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t clen = slash ? (size_t)(slash - p) : strlen(p);
		if (clen == 0 || clen > 64)
			return false;
		DIR *dir = opendir(path);
		if (!dir)
			return false;
		struct dirent *de;
		bool found = false;
		while ((de = readdir(dir)) != NULL)
			if (strlen(de->d_name) == clen && strncasecmp(de->d_name, p, clen) == 0) {
				found = true;
				break;
			}
		if (!found) {
			closedir(dir);
			return false;
		}
		size_t plen = strlen(path);
		if (plen + 1 + clen >= sizeof path || o + clen + 2 > cap) {
			closedir(dir);
			return false;
		}
		path[plen] = '/';
		memcpy(path + plen + 1, de->d_name, clen + 1);
		if (o)
			out[o++] = '/';
		memcpy(out + o, de->d_name, clen);
		o += clen;
		out[o] = '\0';
		closedir(dir);
		p += clen;
		if (*p == '/')
			p++;
	}
	return o > 0;
}

/* Find or load a named zone (case-insensitive as PostgreSQL). */
static const Zone *
zone_lookup(const char *name)
{
	char canon[128];
	size_t len = strlen(name);
	if (len == 0 || len >= 128)
		return NULL;
	pthread_mutex_lock(&zone_lock);
	for (Zone *z = zone_cache; z; z = z->next)
		if (!z->fixed && strcasecmp(z->name, name) == 0) {
			pthread_mutex_unlock(&zone_lock);
			return z;
		}
	Zone *z = NULL;
	if (zone_resolve(name, canon, sizeof canon))
		z = zone_read(canon, canon);
	if (z) {
		z->next = zone_cache;
		zone_cache = z;
	}
	pthread_mutex_unlock(&zone_lock);
	return z;
}

static const Zone *
zone_fixed(int32_t east, const char *name, const char *abbr)
{
	pthread_mutex_lock(&zone_lock);
	for (Zone *z = zone_cache; z; z = z->next)
		if (z->fixed && z->fixed_east == east && strcmp(z->name, name) == 0) {
			pthread_mutex_unlock(&zone_lock);
			return z;
		}
	Zone *z = xcalloc(1, sizeof *z);
	z->fixed = true;
	z->fixed_east = east;
	snprintf(z->name, sizeof z->name, "%s", name);
	snprintf(z->fixed_abbr, sizeof z->fixed_abbr, "%s", abbr);
	z->next = zone_cache;
	zone_cache = z;
	pthread_mutex_unlock(&zone_lock);
	return z;
}

int32_t
datetime_tz_offset_utc(int64_t ts_utc)
{
	return zone_offset(session_zone, floordiv(ts_utc, USECS_PER_SEC));
}

/* Offset east for local wall-clock seconds t (PostgreSQL's
 * DetermineTimeZoneOffset: gap -> offset before, overlap -> offset after). */
static int32_t
local_offset(const Zone *z, int64_t t)
{
	if (z->fixed)
		return z->fixed_east;
	int32_t a = zone_offset(z, t - 86400), b = zone_offset(z, t + 86400);
	if (a == b)
		return a;
	int64_t before = t - a, after = t - b;
	bool bb = zone_offset(z, before) == a, ab = zone_offset(z, after) == a;
	if (bb && ab)
		return a;
	if (!bb && !ab)
		return b;
	return before > after ? a : b;
}

int64_t
datetime_local_to_utc(int64_t local)
{
	if (local == TS_NOBEGIN || local == TS_NOEND)
		return local;
	int32_t off = local_offset(session_zone, floordiv(local, USECS_PER_SEC));
	return local - (int64_t)off * USECS_PER_SEC;
}

int64_t
datetime_timestamptz_to_local(int64_t ts)
{
	if (ts == TS_NOBEGIN || ts == TS_NOEND)
		return ts;
	return ts + (int64_t)datetime_tz_offset_utc(ts) * USECS_PER_SEC;
}

/* "+05:30" / "-8" / "+0530" -> sign, h, m, s; -1 on bad text. */
static int
parse_offset_text(const char *s, int *sign, int *h, int *mi, int *sec)
{
	const char *p = s;
	*sign = 1;
	*h = *mi = *sec = 0;
	if (*p == '+' || *p == '-')
		*sign = *p++ == '-' ? -1 : 1;
	else
		return -1;
	if (!isdigit((unsigned char)*p))
		return -1;
	int nd = 0;
	long v = 0;
	while (isdigit((unsigned char)*p) && nd < 7)
		v = v * 10 + (*p++ - '0'), nd++;
	if (*p == ':') {
		*h = (int)v;
		p++;
		if (!isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1]))
			return -1;
		*mi = (p[0] - '0') * 10 + p[1] - '0';
		p += 2;
		if (*p == ':') {
			p++;
			if (!isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1]))
				return -1;
			*sec = (p[0] - '0') * 10 + p[1] - '0';
			p += 2;
		}
	} else if (nd <= 2) {
		*h = (int)v;
	} else if (nd == 4) {
		*h = (int)(v / 100);
		*mi = (int)(v % 100);
	} else if (nd == 6) {
		*h = (int)(v / 10000);
		*mi = (int)(v / 100 % 100);
		*sec = (int)(v % 100);
	} else
		return -1;
	return *p ? -1 : 0;
}

int
datetime_set_timezone(const char *name, floe_error *err)
{
	int sign, h, mi, sec;
	char *end;
	double hours = strtod(name, &end);

	/* a number is hours EAST of UTC (variable.c check_timezone: SET TIME
	 * ZONE -8, '5.5') */
	if (end != name && *end == '\0') {
		if (!(fabs(hours) < 16))
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "invalid value for parameter \"TimeZone\": \"%s\"", name);
		return datetime_set_timezone_offset((int32_t)(hours * 3600), err);
	}

	if (strcasecmp(name, "UTC") == 0 || strcasecmp(name, "GMT") == 0 ||
	    strcasecmp(name, "Z") == 0 || strcasecmp(name, "Etc/UTC") == 0 ||
	    strcasecmp(name, "Zulu") == 0 || strcasecmp(name, "UCT") == 0) {
		cur_zone = zone_fixed(0, name, strcasecmp(name, "GMT") == 0 ? "GMT" : "UTC");
		return FLOE_OK;
	}
	/* POSIX-style "+05:30", "UTC+3": the offset is hours WEST of UTC, as
	 * PostgreSQL reads a string time zone setting. */
	const char *p = name;
	char abbr[4] = "";
	if ((strncasecmp(p, "UTC", 3) == 0 || strncasecmp(p, "GMT", 3) == 0) &&
	    (p[3] == '+' || p[3] == '-')) {
		snprintf(abbr, sizeof abbr, "%s", strncasecmp(p, "UTC", 3) == 0 ? "UTC" : "GMT");
		p += 3;
	}
	if (parse_offset_text(p, &sign, &h, &mi, &sec) == 0) {
		if (h > 15 || mi > 59 || sec > 59)
			goto bad;
		cur_zone = zone_fixed(-sign * (h * 3600 + mi * 60 + sec), name, abbr);
		return FLOE_OK;
	}
	const Zone *z = zone_lookup(name);
	if (z) {
		cur_zone = z;
		return FLOE_OK;
	}
bad:
	return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
			   "invalid value for parameter \"TimeZone\": \"%s\"", name);
}

int
datetime_set_timezone_offset(int32_t east_seconds, floe_error *err)
{
	char name[64];
	if (east_seconds > 15 * 3600 + 59 * 60 + 59 || east_seconds < -(15 * 3600 + 59 * 60 + 59))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "invalid value for parameter \"TimeZone\"");
	/* PostgreSQL shows SET TIME ZONE -8 as "<-08>+08", 5.5 as
	 * "<+05:30>-05:30" (pg_tzset_offset) */
	int a = east_seconds < 0 ? -east_seconds : east_seconds;
	char hms[16];
	if (a % 60)
		snprintf(hms, sizeof hms, "%02d:%02d:%02d", a / 3600, a / 60 % 60, a % 60);
	else if (a % 3600)
		snprintf(hms, sizeof hms, "%02d:%02d", a / 3600, a / 60 % 60);
	else
		snprintf(hms, sizeof hms, "%02d", a / 3600);
	snprintf(name, sizeof name, "<%c%s>%c%s", east_seconds < 0 ? '-' : '+', hms,
		 east_seconds < 0 ? '+' : '-', hms);
	{
		char abbr[16];
		const char *gt = strchr(name, '>');
		snprintf(abbr, sizeof abbr, "%.*s", (int)(gt - name - 1), name + 1);
		cur_zone = zone_fixed(east_seconds, name, abbr);
	}
	return FLOE_OK;
}

const char *
datetime_timezone_name(void)
{
	return session_zone->name;
}

const DatetimeZone *
datetime_current_zone(void)
{
	return session_zone;
}

void
datetime_use_zone(const DatetimeZone *z)
{
	cur_zone = z;
}

const char *
datetime_zone_name(const DatetimeZone *z)
{
	return z ? z->name : zone_utc.name;
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

/* The running session's DateStyle and IntervalStyle, per thread (zero:
 * ISO, MDY; postgres), installed like cur_zone. */
static _Thread_local DatetimeStyle cur_style;

DatetimeStyle
datetime_current_style(void)
{
	return cur_style;
}

void
datetime_use_style(DatetimeStyle st)
{
	cur_style = st;
}

/* ":SS[.ffffff]" without trailing zeros, appended at buf; returns length. */
static int
fmt_secs(char *buf, int64_t sec, int64_t usec)
{
	int n = sprintf(buf, "%02lld", (long long)sec);
	if (usec) {
		char f[8];
		sprintf(f, "%06lld", (long long)usec);
		int k = 6;
		while (k > 0 && f[k - 1] == '0')
			k--;
		n += sprintf(buf + n, ".%.*s", k, f);
	}
	return n;
}

/* The date part in the thread's DateStyle (EncodeDateOnly): ISO
 * "2024-07-08", SQL "07/08/2024" (DMY "08/07/2024"), German "08.07.2024",
 * Postgres "07-08-2024" (DMY "08-07-2024"); *bc for years <= 0. */
static int
fmt_date_style(char *buf, int64_t y, int m, int d, bool *bc)
{
	bool dmy = cur_style.order == DATEORDER_DMY;
	*bc = y <= 0;
	if (*bc)
		y = 1 - y;
	switch (cur_style.style) {
	case DATESTYLE_SQL:
		return sprintf(buf, "%02d/%02d/%04lld", dmy ? d : m, dmy ? m : d, (long long)y);
	case DATESTYLE_GERMAN:
		return sprintf(buf, "%02d.%02d.%04lld", d, m, (long long)y);
	case DATESTYLE_POSTGRES:
		return sprintf(buf, "%02d-%02d-%04lld", dmy ? d : m, dmy ? m : d, (long long)y);
	default:
		return sprintf(buf, "%04lld-%02d-%02d", (long long)y, m, d);
	}
}

int
datetime_format_date(int32_t d, char *buf)
{
	int64_t y;
	int m, dd;
	bool bc;
	if (d == DATE_NOEND)
		return sprintf(buf, "infinity");
	if (d == DATE_NOBEGIN)
		return sprintf(buf, "-infinity");
	datetime_civil_from_days(d, &y, &m, &dd);
	int n = fmt_date_style(buf, y, m, dd, &bc);
	if (bc)
		n += sprintf(buf + n, " BC");
	return n;
}

int
datetime_format_time(int64_t t, char *buf)
{
	int64_t h = t / USECS_PER_HOUR, mi = t / USECS_PER_MIN % 60;
	int64_t s = t / USECS_PER_SEC % 60, us = t % USECS_PER_SEC;
	int n = sprintf(buf, "%02lld:%02lld:", (long long)h, (long long)mi);
	return n + fmt_secs(buf + n, s, us);
}

static int
fmt_offset(char *buf, int32_t east)
{
	int a = east < 0 ? -east : east;
	int h = a / 3600, mi = a / 60 % 60, s = a % 60;
	char sign = east >= 0 ? '+' : '-';
	if (s)
		return sprintf(buf, "%c%02d:%02d:%02d", sign, h, mi, s);
	if (mi)
		return sprintf(buf, "%c%02d:%02d", sign, h, mi);
	return sprintf(buf, "%c%02d", sign, h);
}

/* A local timestamp in the thread's DateStyle (EncodeDateTime).  ISO:
 * "2024-07-08 13:04:05.25+02"; SQL, German: the date part, the time and
 * the zone abbreviation ("07/08/2024 13:04:05 CEST"); Postgres: "Mon Jul
 * 08 13:04:05 2024 CEST" (DMY "Mon 08 Jul ...").  abbr is NULL for
 * timestamp without time zone; " BC" ends years <= 0. */
static int
fmt_ts(int64_t ts, bool with_tz, int32_t east, const char *abbr, char *buf)
{
	static const char *const mon[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul",
					   "Aug", "Sep", "Oct", "Nov", "Dec" };
	static const char *const dow[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	int64_t days = floordiv(ts, USECS_PER_DAY);
	int64_t tod = ts - days * USECS_PER_DAY;
	int64_t y;
	int m, d, n;
	bool bc;
	datetime_civil_from_days(days, &y, &m, &d);
	if (cur_style.style == DATESTYLE_POSTGRES) {
		int wd = (int)(((days % 7) + 7 + 4) % 7);      /* 1970-01-01: Thursday */
		bc = y <= 0;
		n = cur_style.order == DATEORDER_DMY ?
			sprintf(buf, "%s %02d %s ", dow[wd], d, mon[m - 1]) :
			sprintf(buf, "%s %s %02d ", dow[wd], mon[m - 1], d);
		n += datetime_format_time(tod, buf + n);
		n += sprintf(buf + n, " %04lld", (long long)(bc ? 1 - y : y));
	} else {
		n = fmt_date_style(buf, y, m, d, &bc);
		n += sprintf(buf + n, " ");
		n += datetime_format_time(tod, buf + n);
	}
	if (with_tz) {
		if (cur_style.style == DATESTYLE_ISO)
			n += fmt_offset(buf + n, east);
		else
			n += snprintf(buf + n, 20, " %s", abbr ? abbr : "");
	}
	if (bc)
		n += sprintf(buf + n, " BC");
	return n;
}

int
datetime_format_timestamp(int64_t ts, char *buf)
{
	if (ts == TS_NOEND)
		return sprintf(buf, "infinity");
	if (ts == TS_NOBEGIN)
		return sprintf(buf, "-infinity");
	return fmt_ts(ts, false, 0, NULL, buf);
}

int
datetime_format_timestamptz(int64_t ts, char *buf)
{
	if (ts == TS_NOEND)
		return sprintf(buf, "infinity");
	if (ts == TS_NOBEGIN)
		return sprintf(buf, "-infinity");
	int32_t east = datetime_tz_offset_utc(ts);
	int64_t local;
	if (__builtin_add_overflow(ts, (int64_t)east * USECS_PER_SEC, &local))
		local = ts;
	return fmt_ts(local, true, east, zone_abbr_at(session_zone, floordiv(ts, USECS_PER_SEC)), buf);
}

static int
add_part(char *buf, int64_t v, const char *unit, bool *is_zero, bool *is_before)
{
	if (v == 0)
		return 0;
	int n = sprintf(buf, "%s%s%lld %s%s", !*is_zero ? " " : "",
			(*is_before && v > 0) ? "+" : "", (long long)v, unit,
			v != 1 ? "s" : "");
	*is_before = v < 0;
	*is_zero = false;
	return n;
}

/* AppendSeconds: |sec| (two digits when fill) and the fraction of |fsec|
 * without trailing zeros. */
static int
iv_secs(char *buf, int64_t sec, int64_t fsec, bool fill)
{
	int n = sprintf(buf, fill ? "%02lld" : "%lld", (long long)llabs(sec));
	if (fsec) {
		char f[24];
		int k = 6;
		sprintf(f, "%06lld", (long long)llabs(fsec));
		while (k > 0 && f[k - 1] == '0')
			k--;
		n += sprintf(buf + n, ".%.*s", k, f);
	}
	return n;
}

/* AddVerboseIntPart: " 3 days"; the first non-zero part's sign decides
 * " ago", later parts are printed relative to it. */
static int
iv_verbose_part(char *buf, int64_t v, const char *unit, bool *is_zero, bool *is_before)
{
	if (v == 0)
		return 0;
	if (*is_zero) {
		*is_before = v < 0;
		v = llabs(v);
	} else if (*is_before) {
		v = -v;
	}
	*is_zero = false;
	return sprintf(buf, " %lld %s%s", (long long)v, unit, v == 1 ? "" : "s");
}

/* EncodeInterval's postgres_verbose, sql_standard and iso_8601 styles. */
static int
iv_styled(int style, int64_t year, int64_t mon, int64_t mday, int64_t hour, int64_t min,
	  int64_t sec, int64_t fsec, char *buf)
{
	int n = 0;

	if (style == INTSTYLE_ISO_8601) {
		if (!year && !mon && !mday && !hour && !min && !sec && !fsec)
			return sprintf(buf, "PT0S");
		buf[n++] = 'P';
		if (year)
			n += sprintf(buf + n, "%lldY", (long long)year);
		if (mon)
			n += sprintf(buf + n, "%lldM", (long long)mon);
		if (mday)
			n += sprintf(buf + n, "%lldD", (long long)mday);
		if (hour || min || sec || fsec)
			buf[n++] = 'T';
		if (hour)
			n += sprintf(buf + n, "%lldH", (long long)hour);
		if (min)
			n += sprintf(buf + n, "%lldM", (long long)min);
		if (sec || fsec) {
			if (sec < 0 || fsec < 0)
				buf[n++] = '-';
			n += iv_secs(buf + n, sec, fsec, false);
			buf[n++] = 'S';
		}
		buf[n] = '\0';
		return n;
	}
	if (style == INTSTYLE_SQL_STANDARD) {
		bool neg = year < 0 || mon < 0 || mday < 0 || hour < 0 || min < 0 || sec < 0 || fsec < 0;
		bool pos = year > 0 || mon > 0 || mday > 0 || hour > 0 || min > 0 || sec > 0 || fsec > 0;
		bool ym = year || mon, dt = mday || hour || min || sec || fsec;
		bool standard = !(neg && pos) && !(ym && dt);

		if (neg && standard) {
			buf[n++] = '-';
			year = -year, mon = -mon, mday = -mday, hour = -hour, min = -min;
			sec = -sec, fsec = -fsec;
		}
		if (!neg && !pos) {
			n += sprintf(buf + n, "0");
		} else if (!standard) {
			n += sprintf(buf + n, "%c%lld-%lld %c%lld %c%lld:%02lld:",
				     year < 0 || mon < 0 ? '-' : '+', (long long)llabs(year),
				     (long long)llabs(mon), mday < 0 ? '-' : '+', (long long)llabs(mday),
				     hour < 0 || min < 0 || sec < 0 || fsec < 0 ? '-' : '+',
				     (long long)llabs(hour), (long long)llabs(min));
			n += iv_secs(buf + n, sec, fsec, true);
		} else if (ym) {
			n += sprintf(buf + n, "%lld-%lld", (long long)year, (long long)mon);
		} else {
			if (mday)
				n += sprintf(buf + n, "%lld ", (long long)mday);
			n += sprintf(buf + n, "%lld:%02lld:", (long long)hour, (long long)min);
			n += iv_secs(buf + n, sec, fsec, true);
		}
		buf[n] = '\0';
		return n;
	}
	/* postgres_verbose */
	{
		bool is_zero = true, is_before = false;
		buf[n++] = '@';
		n += iv_verbose_part(buf + n, year, "year", &is_zero, &is_before);
		n += iv_verbose_part(buf + n, mon, "mon", &is_zero, &is_before);
		n += iv_verbose_part(buf + n, mday, "day", &is_zero, &is_before);
		n += iv_verbose_part(buf + n, hour, "hour", &is_zero, &is_before);
		n += iv_verbose_part(buf + n, min, "min", &is_zero, &is_before);
		if (sec || fsec) {
			buf[n++] = ' ';
			if (sec < 0 || (sec == 0 && fsec < 0)) {
				if (is_zero)
					is_before = true;
				else if (!is_before)
					buf[n++] = '-';
			} else if (is_before) {
				buf[n++] = '-';
			}
			n += iv_secs(buf + n, sec, fsec, false);
			n += sprintf(buf + n, " sec%s", (llabs(sec) != 1 || fsec) ? "s" : "");
			is_zero = false;
		}
		if (is_zero)
			n += sprintf(buf + n, " 0");
		if (is_before)
			n += sprintf(buf + n, " ago");
		buf[n] = '\0';
		return n;
	}
}

int
datetime_format_interval(Interval iv, char *buf)
{
	bool is_zero = true, is_before = false;
	int n = 0;
	int64_t year = iv.months / 12, mon = iv.months % 12;
	int64_t hour = iv.micros / USECS_PER_HOUR;
	int64_t rest = iv.micros - hour * USECS_PER_HOUR;
	int64_t min = rest / USECS_PER_MIN;
	rest -= min * USECS_PER_MIN;
	int64_t sec = rest / USECS_PER_SEC, fsec = rest % USECS_PER_SEC;

	if (cur_style.interval != INTSTYLE_POSTGRES)
		return iv_styled(cur_style.interval, year, mon, iv.days, hour, min, sec, fsec, buf);

	n += add_part(buf + n, year, "year", &is_zero, &is_before);
	n += add_part(buf + n, mon, "mon", &is_zero, &is_before);
	n += add_part(buf + n, iv.days, "day", &is_zero, &is_before);
	if (is_zero || hour || min || sec || fsec) {
		bool minus = hour < 0 || min < 0 || sec < 0 || fsec < 0;
		n += sprintf(buf + n, "%s%s%02llu:%02lld:", is_zero ? "" : " ",
			     minus ? "-" : (is_before ? "+" : ""),
			     (unsigned long long)(hour < 0 ? -(uint64_t)hour : (uint64_t)hour),
			     (long long)llabs(min));
		n += fmt_secs(buf + n, llabs(sec), llabs(fsec));
	}
	buf[n] = '\0';
	return n;
}

/* ------------------------------------------------------------------ */
/* Input: tokeniser                                                    */
/* ------------------------------------------------------------------ */

enum { F_NUM, F_DATE, F_TIME, F_TZ, F_WORD };

#define MAXF 16
#define MAXIN 256

typedef struct Fields {
	int n;
	int type[MAXF];
	char *f[MAXF];
	char buf[MAXIN * 2 + MAXF * 2];
} Fields;

static bool
is_month_word(const char *w, int len)
{
	static const char *m[] = { "jan", "feb", "mar", "apr", "may", "jun", "jul",
				   "aug", "sep", "oct", "nov", "dec" };
	if (len < 3)
		return false;
	for (int i = 0; i < 12; i++)
		if (strncmp(w, m[i], 3) == 0)
			return true;
	return false;
}

/* Split lowercased text into fields; false on characters we do not know. */
static bool
tokenize(const char *s, size_t n, Fields *fl)
{
	char low[MAXIN + 1];
	size_t i = 0, o = 0;
	while (n > 0 && isspace((unsigned char)*s))
		s++, n--;
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n > MAXIN)
		return false;
	for (size_t k = 0; k < n; k++) {
		if (s[k] == '\0')
			return false;
		low[k] = (char)tolower((unsigned char)s[k]);
	}
	low[n] = '\0';
	fl->n = 0;
	while (i < n) {
		char c = low[i];
		if (isspace((unsigned char)c) || c == ',') {
			i++;
			continue;
		}
		if (fl->n >= MAXF)
			return false;
		size_t start = i;
		int type;
		if (isdigit((unsigned char)c)) {
			while (i < n && isdigit((unsigned char)low[i]))
				i++;
			if (i < n && low[i] == ':') {
				while (i < n && (isdigit((unsigned char)low[i]) || low[i] == ':' || low[i] == '.'))
					i++;
				type = F_TIME;
			} else if (i < n && low[i] == '.') {
				/* "12.5" (a number with a fraction, maybe followed by a
				 * unit: "0.1sec") or "2024.01.02" (a date) */
				i++;
				while (i < n && isdigit((unsigned char)low[i]))
					i++;
				type = F_NUM;
				if (i < n && low[i] == '.') {
					while (i < n && (isdigit((unsigned char)low[i]) || low[i] == '.'))
						i++;
					type = F_DATE;
				}
			} else if (i < n && (low[i] == '-' || low[i] == '/')) {
				/* parts are all digits or all letters (month names);
				 * letters right after digits end the field ("15bc") */
				char delim = low[i];
				bool digits_part = true;
				while (i < n && (isdigit((unsigned char)low[i]) || low[i] == delim ||
						 isalpha((unsigned char)low[i]))) {
					if (low[i] == delim)
						digits_part = i + 1 < n && isdigit((unsigned char)low[i + 1]);
					else if (isalpha((unsigned char)low[i]) && digits_part)
						break;
					i++;
				}
				type = F_DATE;
			} else
				type = F_NUM;
		} else if (c == '.' && i + 1 < n && isdigit((unsigned char)low[i + 1])) {
			/* ".5 weeks" */
			i++;
			while (i < n && isdigit((unsigned char)low[i]))
				i++;
			type = F_NUM;
		} else if (isalpha((unsigned char)c)) {
			while (i < n && isalpha((unsigned char)low[i]))
				i++;
			type = F_WORD;
			if (i - start == 1 && c == 't' && i < n && isdigit((unsigned char)low[i]) &&
			    fl->n > 0)
				continue;   /* ISO 8601 date/time separator */
			if (i + 1 < n && (low[i] == '-' || low[i] == '/') &&
			    isdigit((unsigned char)low[i + 1]) && is_month_word(low + start, (int)(i - start))) {
				char delim = low[i];
				while (i < n && (isalnum((unsigned char)low[i]) || low[i] == delim))
					i++;
				type = F_DATE;
			} else if (i < n && (low[i] == '/' || low[i] == '_')) {
				while (i < n && (isalnum((unsigned char)low[i]) || low[i] == '/' ||
						 low[i] == '_' || low[i] == '-' || low[i] == '+'))
					i++;
			}
		} else if (c == '+' || c == '-') {
			i++;
			if (i < n && isdigit((unsigned char)low[i])) {
				while (i < n && (isdigit((unsigned char)low[i]) || low[i] == ':' || low[i] == '.'))
					i++;
				type = F_TZ;
			} else if (i < n && isalpha((unsigned char)low[i])) {
				while (i < n && isalpha((unsigned char)low[i]))
					i++;
				type = F_WORD;
			} else
				return false;
		} else
			return false;
		size_t len = i - start;
		memcpy(fl->buf + o, low + start, len);
		fl->buf[o + len] = '\0';
		fl->f[fl->n] = fl->buf + o;
		fl->type[fl->n] = type;
		fl->n++;
		o += len + 1;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* Input: date/time decoding                                           */
/* ------------------------------------------------------------------ */

enum { DT_OK = 0, DT_BAD, DT_FIELD, DT_FIELD_HINT, DT_TZDISP };

enum { SP_EPOCH = 1, SP_INF, SP_NINF, SP_NOW, SP_TODAY, SP_TOMORROW, SP_YESTERDAY };

typedef struct DtParts {
	bool has_date, has_time, has_tz, bc, has_year;
	int special;              /* 0, SP_EPOCH .. SP_YESTERDAY */
	int64_t year;
	int mon, day;
	int hour, min, sec;
	int64_t usec;
	int ampm;                 /* 0, 1 am, 2 pm */
	int32_t tz_east;
	const Zone *zone;         /* named zone in the text */
	bool named_zone;
	int nums[4];
	int numlen[4];
	int nnums;
} DtParts;

static int
month_from_word(const char *w)
{
	static const char *full[] = { "january", "february", "march", "april", "may", "june",
				      "july", "august", "september", "october", "november", "december" };
	size_t len = strlen(w);
	for (int i = 0; i < 12; i++) {
		if (strcmp(w, full[i]) == 0)
			return i + 1;
		if (len == 3 && strncmp(w, full[i], 3) == 0)
			return i + 1;
	}
	if (strcmp(w, "sept") == 0)
		return 9;
	return 0;
}

static bool
is_weekday(const char *w)
{
	static const char *d[] = { "sunday", "monday", "tuesday", "wednesday", "thursday",
				   "friday", "saturday" };
	size_t len = strlen(w);
	for (int i = 0; i < 7; i++) {
		if (strcmp(w, d[i]) == 0)
			return true;
		if (len == 3 && strncmp(w, d[i], 3) == 0)
			return true;
	}
	return strcmp(w, "tues") == 0 || strcmp(w, "wednes") == 0 || strcmp(w, "thur") == 0 ||
	       strcmp(w, "thurs") == 0;
}

/* A few zone abbreviations from PostgreSQL's Default set (seconds east). */
static bool
zone_abbrev(const char *w, int32_t *east)
{
	static const struct { const char *n; int32_t off; } t[] = {
		{ "utc", 0 }, { "gmt", 0 }, { "z", 0 }, { "zulu", 0 }, { "ut", 0 },
		{ "wet", 0 }, { "west", 3600 }, { "bst", 3600 }, { "cet", 3600 },
		{ "cest", 7200 }, { "met", 3600 }, { "mest", 7200 }, { "eet", 7200 },
		{ "eest", 10800 }, { "msk", 10800 }, { "ist", 7200 }, { "jst", 32400 },
		{ "kst", 32400 }, { "hkt", 28800 }, { "awst", 28800 }, { "acst", 34200 },
		{ "aest", 36000 }, { "aedt", 39600 }, { "nzst", 43200 }, { "nzdt", 46800 },
		{ "est", -18000 }, { "edt", -14400 }, { "cst", -21600 }, { "cdt", -18000 },
		{ "mst", -25200 }, { "mdt", -21600 }, { "pst", -28800 }, { "pdt", -25200 },
		{ "akst", -32400 }, { "akdt", -28800 }, { "hst", -36000 }, { "ast", -14400 },
		{ "adt", -10800 }, { "nst", -12600 }, { "ndt", -9000 },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(w, t[i].n) == 0) {
			*east = t[i].off;
			return true;
		}
	return false;
}

static bool
all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* Two-digit years: PostgreSQL's rule (70..99 -> 19xx, else 20xx). */
static int64_t
adjust_year(int64_t y, int len)
{
	if (len <= 2)
		return y < 70 ? y + 2000 : y + 1900;
	return y;
}

static int
decode_date_field(char *f, DtParts *p)
{
	char delim = 0;
	for (char *q = f; *q; q++)
		if (*q == '-' || *q == '/' || *q == '.') {
			delim = *q;
			break;
		}
	char *parts[3];
	int np = 0;
	char *save = f;
	for (char *q = f;; q++) {
		if (*q == delim || *q == '\0') {
			bool end = *q == '\0';
			if (np >= 3)
				return DT_BAD;
			*q = '\0';
			parts[np++] = save;
			save = q + 1;
			if (end)
				break;
		}
	}
	if (np != 3)
		return DT_BAD;
	int mpos = -1;
	for (int i = 0; i < 3; i++) {
		if (!all_digits(parts[i])) {
			int m = month_from_word(parts[i]);
			if (!m || mpos >= 0)
				return DT_BAD;
			mpos = i;
			p->mon = m;
		}
	}
	if (mpos >= 0) {
		const char *a = NULL, *b = NULL;
		for (int i = 0; i < 3; i++)
			if (i != mpos) {
				if (!a)
					a = parts[i];
				else
					b = parts[i];
			}
		if (strlen(a) > 2) {
			p->year = strtoll(a, NULL, 10);
			p->day = atoi(b);
		} else {
			p->day = atoi(a);
			p->year = adjust_year(strtoll(b, NULL, 10), (int)strlen(b));
		}
	} else if (strlen(parts[0]) > 2) {
		if (strlen(parts[0]) > 9 || strlen(parts[1]) > 9 || strlen(parts[2]) > 9)
			return DT_BAD;
		p->year = strtoll(parts[0], NULL, 10);
		p->mon = atoi(parts[1]);
		p->day = atoi(parts[2]);
	} else {
		/* DateStyle's field order: MDY, DMY or YMD (DecodeNumber) */
		if (strlen(parts[1]) > 9 || strlen(parts[2]) > 9)
			return DT_BAD;
		if (cur_style.order == DATEORDER_YMD) {
			p->year = adjust_year(strtoll(parts[0], NULL, 10), (int)strlen(parts[0]));
			p->mon = atoi(parts[1]);
			p->day = atoi(parts[2]);
		} else {
			bool dmy = cur_style.order == DATEORDER_DMY;
			p->mon = atoi(parts[dmy ? 1 : 0]);
			p->day = atoi(parts[dmy ? 0 : 1]);
			p->year = adjust_year(strtoll(parts[2], NULL, 10), (int)strlen(parts[2]));
		}
	}
	p->has_date = true;
	p->has_year = true;
	return DT_OK;
}

/* "h:m[:s[.f]]" */
static int
decode_time_field(const char *f, int *h, int *mi, int *s, int64_t *us)
{
	const char *q = f;
	long v[3] = { 0, 0, 0 };
	int nv = 0;
	*us = 0;
	while (nv < 3) {
		if (!isdigit((unsigned char)*q))
			return DT_BAD;
		long x = 0;
		int nd = 0;
		while (isdigit((unsigned char)*q)) {
			if (++nd > 9)
				return DT_FIELD;
			x = x * 10 + (*q++ - '0');
		}
		v[nv++] = x;
		if (*q == ':') {
			if (nv == 3)
				return DT_BAD;
			q++;
		} else
			break;
	}
	if (*q == '.') {
		if (nv < 2)
			return DT_BAD;
		q++;
		double frac = 0, scale = 0.1;
		if (!isdigit((unsigned char)*q))
			return DT_BAD;
		while (isdigit((unsigned char)*q)) {
			frac += (*q++ - '0') * scale;
			scale /= 10;
		}
		*us = (int64_t)rint(frac * 1000000.0);
	}
	if (*q || nv < 2)
		return DT_BAD;
	if (nv == 2 && strchr(f, '.')) {
		/* "mm:ss.fff" (DecodeTimeCommon) */
		v[2] = v[1];
		v[1] = v[0];
		v[0] = 0;
	}
	if (v[0] > INT32_MAX)
		return DT_FIELD;
	*h = (int)v[0];
	*mi = (int)v[1];
	*s = (int)v[2];
	return DT_OK;
}

static int
decode_fields(Fields *fl, DtParts *p, bool want_date)
{
	memset(p, 0, sizeof *p);
	for (int i = 0; i < fl->n; i++) {
		char *f = fl->f[i];
		int rc;
		switch (fl->type[i]) {
		case F_DATE:
			if (p->has_date)
				return DT_BAD;
			if ((rc = decode_date_field(f, p)) != DT_OK)
				return rc;
			break;
		case F_TIME:
			if (p->has_time)
				return DT_BAD;
			if ((rc = decode_time_field(f, &p->hour, &p->min, &p->sec, &p->usec)) != DT_OK)
				return rc;
			p->has_time = true;
			break;
		case F_TZ: {
			int sign, h, mi, sec;
			if (!p->has_date && !p->has_time)
				return DT_BAD;
			if (p->has_tz)
				return DT_BAD;
			if (parse_offset_text(f, &sign, &h, &mi, &sec) != 0)
				return DT_BAD;
			if (h > 15)
				return DT_TZDISP;
			if (mi > 59 || sec > 59)
				return DT_FIELD;
			p->tz_east = sign * (h * 3600 + mi * 60 + sec);
			p->has_tz = true;
			break;
		}
		case F_NUM: {
			size_t len = strlen(f);
			if (strchr(f, '.'))
				return DT_BAD;
			if (!p->has_date && len == 8 && p->nnums == 0 && !p->mon) {
				long v = atol(f);
				p->year = v / 10000;
				p->mon = (int)(v / 100 % 100);
				p->day = (int)(v % 100);
				p->has_date = p->has_year = true;
				break;
			}
			if ((!want_date || p->has_date) && !p->has_time && (len == 4 || len == 6)) {
				/* "hhmm[ss]" time for the time type */
				long v = atol(f);
				if (len == 6) {
					p->hour = (int)(v / 10000);
					p->min = (int)(v / 100 % 100);
					p->sec = (int)(v % 100);
				} else {
					p->hour = (int)(v / 100);
					p->min = (int)(v % 100);
				}
				p->has_time = true;
				break;
			}
			if (p->nnums >= 3 || len > 9)
				return DT_BAD;
			p->nums[p->nnums] = atoi(f);
			p->numlen[p->nnums] = (int)len;
			p->nnums++;
			break;
		}
		case F_WORD: {
			int m;
			int32_t east;
			if (strcmp(f, "epoch") == 0)
				p->special = SP_EPOCH;
			else if (strcmp(f, "infinity") == 0 || strcmp(f, "+infinity") == 0)
				p->special = SP_INF;
			else if (strcmp(f, "-infinity") == 0)
				p->special = SP_NINF;
			else if (strcmp(f, "now") == 0)
				p->special = SP_NOW;
			else if (strcmp(f, "today") == 0)
				p->special = SP_TODAY;
			else if (strcmp(f, "tomorrow") == 0)
				p->special = SP_TOMORROW;
			else if (strcmp(f, "yesterday") == 0)
				p->special = SP_YESTERDAY;
			else if (strcmp(f, "allballs") == 0) {
				if (p->has_time)
					return DT_BAD;
				p->has_time = true;
				p->hour = p->min = p->sec = 0;
			} else if (strcmp(f, "am") == 0 || strcmp(f, "a.m.") == 0) {
				if (p->ampm)
					return DT_BAD;
				p->ampm = 1;
			} else if (strcmp(f, "pm") == 0) {
				if (p->ampm)
					return DT_BAD;
				p->ampm = 2;
			} else if (strcmp(f, "bc") == 0) {
				if (p->bc)
					return DT_BAD;
				p->bc = true;
			} else if (strcmp(f, "ad") == 0) {
				/* nothing */
			} else if ((m = month_from_word(f)) != 0 && !p->mon && !p->has_date) {
				p->mon = m;
			} else if (is_weekday(f)) {
				/* ignored, as PostgreSQL does */
			} else if (zone_abbrev(f, &east)) {
				if (p->has_tz)
					return DT_BAD;
				p->tz_east = east;
				p->has_tz = true;
			} else if (strlen(f) > 2 && (strchr(f, '/') || strlen(f) > 3) &&
				   (p->zone = zone_lookup(f)) != NULL) {
				if (p->has_tz)
					return DT_BAD;
				p->named_zone = true;
				p->has_tz = true;
			} else
				return DT_BAD;
			break;
		}
		}
	}
	if (p->special) {
		if (fl->n != 1)
			return DT_BAD;
		return DT_OK;
	}
	/* month name + loose numbers: "Jan 2 2024", "2 Jan 2024", "January 2, 2024" */
	if (p->mon && !p->has_date) {
		if (p->nnums != 2)
			return DT_BAD;
		int di = 0, yi = 1;
		if (p->numlen[0] > 2 || p->nums[0] > 31) {
			yi = 0;
			di = 1;
		}
		p->day = p->nums[di];
		p->year = adjust_year(p->nums[yi], p->numlen[yi]);
		p->has_date = p->has_year = true;
	} else if (p->nnums == 3 && !p->has_date) {
		/* "1 2 3": DateStyle's order (MDY, DMY, YMD), or YMD when the
		 * first has more than two digits */
		if (p->numlen[0] > 2) {
			p->year = p->nums[0];
			p->mon = p->nums[1];
			p->day = p->nums[2];
		} else if (cur_style.order == DATEORDER_YMD) {
			p->year = adjust_year(p->nums[0], p->numlen[0]);
			p->mon = p->nums[1];
			p->day = p->nums[2];
		} else {
			bool dmy = cur_style.order == DATEORDER_DMY;
			p->mon = p->nums[dmy ? 1 : 0];
			p->day = p->nums[dmy ? 0 : 1];
			p->year = adjust_year(p->nums[2], p->numlen[2]);
		}
		p->has_date = p->has_year = true;
	} else if (p->nnums) {
		return DT_BAD;
	}
	if (p->ampm) {
		if (!p->has_time || p->hour > 12)
			return DT_FIELD;
		if (p->ampm == 1 && p->hour == 12)
			p->hour = 0;
		else if (p->ampm == 2 && p->hour != 12)
			p->hour += 12;
	}
	if (p->has_date) {
		if (p->year <= 0)
			return DT_FIELD;
		if (p->bc)
			p->year = 1 - p->year;
		if (p->mon < 1 || p->mon > 12 || p->day < 1 || p->day > 31)
			return DT_FIELD_HINT;
		if (p->day > days_in_month(p->year, p->mon))
			return DT_FIELD;
	} else if (p->bc)
		return DT_BAD;
	if (p->has_time) {
		if (p->hour < 0 || p->hour > 24 || p->min < 0 || p->min > 59 || p->sec < 0 ||
		    p->sec > 60 || p->usec < 0 || p->usec > USECS_PER_SEC ||
		    (p->hour == 24 && (p->min || p->sec || p->usec)))
			return DT_FIELD;
	}
	return DT_OK;
}

static int
dt_error(int rc, const char *type, const char *s, size_t n, floe_error *err)
{
	int len = quote_len(s, n);
	switch (rc) {
	case DT_FIELD:
		return floe_errorf(err, ERRCODE_DATETIME_FIELD_OVERFLOW,
				   "date/time field value out of range: \"%.*s\"", len, s);
	case DT_FIELD_HINT:
		floe_errorf(err, ERRCODE_DATETIME_FIELD_OVERFLOW,
			    "date/time field value out of range: \"%.*s\"", len, s);
		return floe_error_hint(err, "Perhaps you need a different \"datestyle\" setting.");
	case DT_TZDISP:
		/* PostgreSQL: 22009 invalid_time_zone_displacement_value */
		return floe_errorf(err, ERRCODE_DATETIME_FIELD_OVERFLOW,
				   "time zone displacement out of range: \"%.*s\"", len, s);
	default:
		return floe_errorf(err, ERRCODE_INVALID_DATETIME_FORMAT,
				   "invalid input syntax for type %s: \"%.*s\"", type, len, s);
	}
}

static int
parse_dt(const char *s, size_t n, const char *type, bool want_date, DtParts *p,
	 floe_error *err)
{
	Fields fl;
	int rc;
	if (!tokenize(s, n, &fl) || fl.n == 0)
		return dt_error(DT_BAD, type, s, n, err);
	rc = decode_fields(&fl, p, want_date);
	if (rc != DT_OK)
		return dt_error(rc, type, s, n, err);
	if (want_date && !p->special && !p->has_date)
		return dt_error(DT_BAD, type, s, n, err);
	return FLOE_OK;
}

static __thread int64_t stmt_now;   /* 0: use the clock */

void
datetime_set_statement_now(int64_t ts_utc)
{
	stmt_now = ts_utc;
}

int64_t
datetime_statement_now(void)
{
	return stmt_now;
}

int64_t
datetime_now(void)
{
	if (stmt_now)
		return stmt_now;
	struct timespec tsp;
	clock_gettime(CLOCK_REALTIME, &tsp);
	return (int64_t)tsp.tv_sec * USECS_PER_SEC + tsp.tv_nsec / 1000;
}

/* 'now', 'today', ... as a local (session zone) timestamp. */
static int64_t
special_local(int sp)
{
	int64_t local = datetime_timestamptz_to_local(datetime_now());
	if (sp == SP_NOW)
		return local;
	int64_t day = floordiv(local, USECS_PER_DAY);
	day += sp == SP_TOMORROW ? 1 : sp == SP_YESTERDAY ? -1 : 0;
	return day * USECS_PER_DAY;
}

int
datetime_parse_date(const char *s, size_t n, int32_t *out, floe_error *err)
{
	DtParts p;
	TRY(parse_dt(s, n, "date", true, &p, err));
	if (p.special >= SP_NOW) {
		*out = (int32_t)floordiv(special_local(p.special), USECS_PER_DAY);
		return FLOE_OK;
	}
	if (p.special) {
		*out = p.special == SP_EPOCH ? 0 : p.special == SP_INF ? DATE_NOEND : DATE_NOBEGIN;
		return FLOE_OK;
	}
	int64_t d = datetime_days_from_civil(p.year, p.mon, p.day);
	if (p.year > 6000000 || p.year < -5000 || d < DATE_MIN_DAYS || d > DATE_MAX_DAYS)
		return floe_errorf(err, ERRCODE_DATETIME_FIELD_OVERFLOW,
				   "date out of range: \"%.*s\"", quote_len(s, n), s);
	*out = (int32_t)d;
	return FLOE_OK;
}

int
datetime_parse_time(const char *s, size_t n, int64_t *out, floe_error *err)
{
	DtParts p;
	TRY(parse_dt(s, n, "time", false, &p, err));
	if (p.special >= SP_NOW) {
		int64_t l = special_local(p.special);
		*out = l - floordiv(l, USECS_PER_DAY) * USECS_PER_DAY;
		return FLOE_OK;
	}
	if (p.special || !p.has_time)
		return dt_error(DT_BAD, "time", s, n, err);
	int64_t t = p.hour * USECS_PER_HOUR + p.min * USECS_PER_MIN + p.sec * USECS_PER_SEC + p.usec;
	if (t > USECS_PER_DAY)
		return dt_error(DT_FIELD, "time", s, n, err);
	*out = t;
	return FLOE_OK;
}

/* Local timestamp from parts; false when out of range. */
static bool
parts_to_ts(const DtParts *p, int64_t *out)
{
	if (p->year > 300000 || p->year < -5000)
		return false;
	int64_t d = datetime_days_from_civil(p->year, p->mon, p->day);
	int64_t t = 0;
	if (p->has_time)
		t = p->hour * USECS_PER_HOUR + p->min * USECS_PER_MIN + p->sec * USECS_PER_SEC + p->usec;
	int128 ts = (int128)d * USECS_PER_DAY + t;
	if (ts < TS_MIN_USECS || ts > TS_MAX_USECS)
		return false;
	*out = (int64_t)ts;
	return true;
}

static int
parse_ts(const char *s, size_t n, bool with_tz, int64_t *out, floe_error *err)
{
	DtParts p;
	const char *type = with_tz ? "timestamp with time zone" : "timestamp";
	int64_t ts;
	TRY(parse_dt(s, n, type, true, &p, err));
	if (p.special == SP_NOW && with_tz) {
		*out = datetime_now();
		return FLOE_OK;
	}
	if (p.special >= SP_NOW) {
		int64_t l = special_local(p.special);
		*out = with_tz ? datetime_local_to_utc(l) : l;
		return FLOE_OK;
	}
	if (p.special) {
		*out = p.special == SP_EPOCH ? 0 : p.special == SP_INF ? TS_NOEND : TS_NOBEGIN;
		return FLOE_OK;
	}
	if (!parts_to_ts(&p, &ts))
		goto range;
	if (with_tz) {
		int32_t off;
		if (p.named_zone)
			off = local_offset(p.zone, floordiv(ts, USECS_PER_SEC));
		else if (p.has_tz)
			off = p.tz_east;
		else
			off = local_offset(session_zone, floordiv(ts, USECS_PER_SEC));
		int128 u = (int128)ts - (int128)off * USECS_PER_SEC;
		if (u < TS_MIN_USECS || u > TS_MAX_USECS)
			goto range;
		ts = (int64_t)u;
	}
	*out = ts;
	return FLOE_OK;
range:
	return floe_errorf(err, ERRCODE_DATETIME_FIELD_OVERFLOW,
			   "timestamp out of range: \"%.*s\"", quote_len(s, n), s);
}

int
datetime_parse_timestamp(const char *s, size_t n, int64_t *out, floe_error *err)
{
	return parse_ts(s, n, false, out, err);
}

int
datetime_parse_timestamptz(const char *s, size_t n, int64_t *out, floe_error *err)
{
	return parse_ts(s, n, true, out, err);
}

/* ------------------------------------------------------------------ */
/* Input: intervals                                                    */
/* ------------------------------------------------------------------ */

enum { U_NONE = 0, U_USEC, U_MSEC, U_SEC, U_MIN, U_HOUR, U_DAY, U_WEEK, U_MONTH,
       U_YEAR, U_DECADE, U_CENTURY, U_MILLENNIUM, U_AGO, U_AT };

static int
unit_from_word(const char *w)
{
	static const struct { const char *n; int u; } t[] = {
		{ "microsecond", U_USEC }, { "microseconds", U_USEC }, { "us", U_USEC },
		{ "usec", U_USEC }, { "usecs", U_USEC }, { "useconds", U_USEC },
		{ "millisecond", U_MSEC }, { "milliseconds", U_MSEC }, { "ms", U_MSEC },
		{ "msec", U_MSEC }, { "msecs", U_MSEC }, { "mseconds", U_MSEC },
		{ "second", U_SEC }, { "seconds", U_SEC }, { "s", U_SEC }, { "sec", U_SEC },
		{ "secs", U_SEC },
		{ "minute", U_MIN }, { "minutes", U_MIN }, { "m", U_MIN }, { "min", U_MIN },
		{ "mins", U_MIN },
		{ "hour", U_HOUR }, { "hours", U_HOUR }, { "h", U_HOUR }, { "hr", U_HOUR },
		{ "hrs", U_HOUR },
		{ "day", U_DAY }, { "days", U_DAY }, { "d", U_DAY },
		{ "week", U_WEEK }, { "weeks", U_WEEK }, { "w", U_WEEK },
		{ "month", U_MONTH }, { "months", U_MONTH }, { "mon", U_MONTH }, { "mons", U_MONTH },
		{ "year", U_YEAR }, { "years", U_YEAR }, { "y", U_YEAR }, { "yr", U_YEAR },
		{ "yrs", U_YEAR },
		{ "decade", U_DECADE }, { "decades", U_DECADE }, { "dec", U_DECADE },
		{ "decs", U_DECADE },
		{ "century", U_CENTURY }, { "centuries", U_CENTURY }, { "c", U_CENTURY },
		{ "cent", U_CENTURY },
		{ "millennium", U_MILLENNIUM }, { "millennia", U_MILLENNIUM },
		{ "mil", U_MILLENNIUM }, { "mils", U_MILLENNIUM },
		{ "ago", U_AGO }, { "@", U_AT },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(w, t[i].n) == 0)
			return t[i].u;
	return U_NONE;
}

typedef struct IvAcc {
	int64_t months, days, micros;
} IvAcc;

enum { IV_OK = 0, IV_BAD, IV_RANGE };

/* Add fraction `frac` of `scale` micros (AdjustFractMicroseconds). */
static int
fract_micros(double frac, double scale, IvAcc *a)
{
	if (frac == 0)
		return IV_OK;
	frac *= scale;
	if (fabs(frac) > 9.2e18)
		return IV_RANGE;
	int64_t us = (int64_t)frac;
	frac -= (double)us;
	us += (int64_t)rint(frac);
	if (__builtin_add_overflow(a->micros, us, &a->micros))
		return IV_RANGE;
	return IV_OK;
}

static int
fract_days(double frac, int scale, IvAcc *a)
{
	if (frac == 0)
		return IV_OK;
	frac *= scale;
	if (fabs(frac) > 2.1e9)
		return IV_RANGE;
	int64_t d = (int64_t)frac;
	a->days += d;
	return fract_micros(frac - (double)d, (double)USECS_PER_DAY, a);
}

/* val (integer part) and frac (same sign) in `unit` added to a. */
static int
iv_add_unit(IvAcc *a, int unit, int64_t val, double frac)
{
	int64_t t;
	switch (unit) {
	case U_USEC:
		if (__builtin_add_overflow(a->micros, val, &a->micros))
			return IV_RANGE;
		return fract_micros(frac, 1, a);
	case U_MSEC:
	case U_SEC:
	case U_MIN:
	case U_HOUR: {
		int64_t sc = unit == U_MSEC ? 1000 : unit == U_SEC ? USECS_PER_SEC
			   : unit == U_MIN ? USECS_PER_MIN : USECS_PER_HOUR;
		if (__builtin_mul_overflow(val, sc, &t) ||
		    __builtin_add_overflow(a->micros, t, &a->micros))
			return IV_RANGE;
		return fract_micros(frac, (double)sc, a);
	}
	case U_DAY:
	case U_WEEK: {
		int sc = unit == U_DAY ? 1 : 7;
		if (__builtin_mul_overflow(val, sc, &t) ||
		    __builtin_add_overflow(a->days, t, &a->days))
			return IV_RANGE;
		return fract_days(frac, sc, a);
	}
	case U_MONTH:
		if (__builtin_add_overflow(a->months, val, &a->months))
			return IV_RANGE;
		return fract_days(frac, DAYS_PER_MONTH, a);
	default: {
		int sc = unit == U_YEAR ? 1 : unit == U_DECADE ? 10 : unit == U_CENTURY ? 100 : 1000;
		if (__builtin_mul_overflow(val, (int64_t)sc * 12, &t) ||
		    __builtin_add_overflow(a->months, t, &a->months))
			return IV_RANGE;
		if (frac != 0) {
			double m = rint(frac * sc * 12);
			if (fabs(m) > 2.1e9)
				return IV_RANGE;
			a->months += (int64_t)m;
		}
		return IV_OK;
	}
	}
}

/* "[+-]digits[.digits]" -> val, frac; false if not a number. */
static bool
split_number(const char *f, int64_t *val, double *frac)
{
	const char *q = f;
	bool neg = false;
	if (*q == '+' || *q == '-')
		neg = *q++ == '-';
	if (!isdigit((unsigned char)*q) && !(*q == '.' && isdigit((unsigned char)q[1])))
		return false;
	int64_t v = 0;
	while (isdigit((unsigned char)*q)) {
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *q - '0', &v))
			return false;
		q++;
	}
	double fr = 0;
	if (*q == '.') {
		q++;
		const char *st = q;
		while (isdigit((unsigned char)*q))
			q++;
		char tmp[64];
		size_t k = (size_t)(q - st);
		if (k > 40)
			k = 40;
		tmp[0] = '0';
		tmp[1] = '.';
		memcpy(tmp + 2, st, k);
		tmp[2 + k] = '\0';
		fr = strtod(tmp, NULL);
	}
	if (*q)
		return false;
	*val = neg ? -v : v;
	*frac = neg ? -fr : fr;
	return true;
}

/* ISO 8601 "P1Y2M3DT4H5M6S" */
static int
parse_iso_interval(const char *s, IvAcc *a)
{
	const char *q = s + 1;
	bool in_time = false;
	if (!*q)
		return IV_BAD;
	while (*q) {
		if (*q == 't') {
			if (in_time)
				return IV_BAD;
			in_time = true;
			q++;
			if (!*q)
				return IV_BAD;
			continue;
		}
		char num[64];
		int k = 0;
		if (*q == '-' || *q == '+')
			num[k++] = *q++;
		while ((isdigit((unsigned char)*q) || *q == '.') && k < 60)
			num[k++] = *q++;
		num[k] = '\0';
		int64_t v;
		double fr;
		if (!split_number(num, &v, &fr))
			return IV_BAD;
		/* ParseISO8601Number: fraction = strtod(number) - integer part */
		fr = strtod(num, NULL) - (double)v;
		int unit;
		switch (*q) {
		case 'y': unit = in_time ? -1 : U_YEAR; break;
		case 'm': unit = in_time ? U_MIN : U_MONTH; break;
		case 'w': unit = in_time ? -1 : U_WEEK; break;
		case 'd': unit = in_time ? -1 : U_DAY; break;
		case 'h': unit = in_time ? U_HOUR : -1; break;
		case 's': unit = in_time ? U_SEC : -1; break;
		default: unit = -1;
		}
		if (unit < 0)
			return IV_BAD;
		q++;
		int rc = iv_add_unit(a, unit, v, fr);
		if (rc != IV_OK)
			return rc;
	}
	return IV_OK;
}

/* Time field of an interval: "[-]h:m[:s[.f]]" */
static int
iv_time(const char *f, IvAcc *a)
{
	bool neg = false;
	if (*f == '-' || *f == '+')
		neg = *f++ == '-';
	int64_t v[3] = { 0, 0, 0 };
	int nv = 0;
	const char *q = f;
	double frac = 0;
	while (nv < 3) {
		if (!isdigit((unsigned char)*q))
			return IV_BAD;
		int64_t x = 0;
		while (isdigit((unsigned char)*q)) {
			if (__builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, *q - '0', &x))
				return IV_RANGE;
			q++;
		}
		v[nv++] = x;
		if (*q == ':')
			q++;
		else
			break;
	}
	if (*q == '.') {
		const char *st = q;
		q++;
		while (isdigit((unsigned char)*q))
			q++;
		frac = strtod(st, NULL);
	}
	if (*q || nv < 2)
		return IV_BAD;
	if (nv == 2 && strchr(f, '.')) {
		/* "mm:ss.fff" (DecodeTimeCommon) */
		v[2] = v[1];
		v[1] = v[0];
		v[0] = 0;
	}
	if (v[1] > 59 || v[2] > 59)
		return IV_RANGE;
	int64_t us, t;
	if (__builtin_mul_overflow(v[0], USECS_PER_HOUR, &us))
		return IV_RANGE;
	t = v[1] * USECS_PER_MIN + v[2] * USECS_PER_SEC + (int64_t)rint(frac * 1e6);
	if (__builtin_add_overflow(us, t, &us))
		return IV_RANGE;
	if (neg)
		us = -us;
	if (__builtin_add_overflow(a->micros, us, &a->micros))
		return IV_RANGE;
	return IV_OK;
}

/* PostgreSQL's field masks (DTK_M) for DecodeInterval's duplicate check. */
enum { M_YEAR = 1 << 0, M_MONTH = 1 << 1, M_DAY = 1 << 2, M_WEEK = 1 << 3, M_HOUR = 1 << 4,
       M_MINUTE = 1 << 5, M_SECOND = 1 << 6, M_MSEC = 1 << 7, M_USEC = 1 << 8,
       M_DECADE = 1 << 9, M_CENTURY = 1 << 10, M_MILLENNIUM = 1 << 11 };
#define M_ALL_SECS (M_SECOND | M_MSEC | M_USEC)

static unsigned
unit_mask(int u, double frac)
{
	switch (u) {
	case U_USEC: return M_USEC;
	case U_MSEC: return M_MSEC;
	case U_SEC: return frac == 0 ? M_SECOND : M_ALL_SECS;
	case U_MIN: return M_MINUTE;
	case U_HOUR: return M_HOUR;
	case U_DAY: return M_DAY;
	case U_WEEK: return M_WEEK;
	case U_MONTH: return M_MONTH;
	case U_YEAR: return M_YEAR;
	case U_DECADE: return M_DECADE;
	case U_CENTURY: return M_CENTURY;
	default: return M_MILLENNIUM;
	}
}

/*
 * DecodeInterval: fields right to left; a unit word sets the unit of the
 * number to its left, and stays in force; a bare number is seconds; after
 * an hour count or a time field the unit becomes days ("1 2:00", "5 1 hour").
 * A field set twice is a syntax error.
 */
static int
decode_interval(Fields *fl, IvAcc *a)
{
	int type = U_NONE;
	unsigned fmask = 0, tmask;
	bool ago = false;
	int rc;

	for (int i = fl->n - 1; i >= 0; i--) {
		char *f = fl->f[i];
		tmask = 0;
		switch (fl->type[i]) {
		case F_WORD: {
			int u = unit_from_word(f);
			if (u == U_NONE)
				return IV_BAD;
			if (u == U_AGO) {
				if (ago || i != fl->n - 1)
					return IV_BAD;
				ago = true;
				break;
			}
			if (u == U_AT)
				break;
			type = u;
			break;
		}
		case F_TIME:
		case F_TZ:
			if (strchr(f, ':')) {
				if ((rc = iv_time(f, a)) != IV_OK)
					return rc;
				tmask = M_HOUR | M_MINUTE | M_ALL_SECS;
				type = U_DAY;
				break;
			}
			/* a signed number */
			__attribute__((fallthrough));
		case F_NUM:
		case F_DATE: {
			int64_t v;
			double fr;
			if (!split_number(f, &v, &fr))
				return IV_BAD;
			if (type == U_NONE)
				type = U_SEC;
			tmask = unit_mask(type, fr);
			if ((rc = iv_add_unit(a, type, v, fr)) != IV_OK)
				return rc;
			if (type == U_HOUR)
				type = U_DAY;
			break;
		}
		default:
			return IV_BAD;
		}
		if (tmask & fmask)
			return IV_BAD;
		fmask |= tmask;
	}
	if (!fmask)
		return IV_BAD;
	if (ago) {
		a->months = -a->months;
		a->days = -a->days;
		a->micros = -a->micros;
	}
	return IV_OK;
}

int
datetime_parse_interval(const char *s, size_t n, Interval *out, floe_error *err)
{
	Fields fl;
	IvAcc a = { 0, 0, 0 };
	int rc = IV_BAD;

	/* A lone sign before a number ("- 1 day") belongs to the number. */
	char tmp[MAXIN + 1];
	size_t k = 0;
	const char *s_in = s;
	size_t n_in = n;
	while (n > 0 && isspace((unsigned char)*s))
		s++, n--;
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n <= MAXIN) {
		for (size_t i = 0; i < n; i++) {
			if ((s[i] == '-' || s[i] == '+') && i + 1 < n && s[i + 1] == ' ') {
				size_t j = i + 1;
				while (j < n && s[j] == ' ')
					j++;
				if (j < n && isdigit((unsigned char)s[j])) {
					tmp[k++] = s[i];
					i = j - 1;
					continue;
				}
			}
			tmp[k++] = s[i] == '@' ? ' ' : s[i];   /* "@ 1 hour" (postgres_verbose) */
		}
		size_t b = 0;
		while (b < k && isspace((unsigned char)tmp[b]))
			b++;
		if (b < k && (tmp[b] == 'p' || tmp[b] == 'P')) {
			size_t e = k;
			while (e > b && isspace((unsigned char)tmp[e - 1]))
				e--;
			char iso[MAXIN + 1];
			for (size_t i = b; i < e; i++)
				iso[i - b] = (char)tolower((unsigned char)tmp[i]);
			iso[e - b] = '\0';
			rc = parse_iso_interval(iso, &a);
		} else if (tokenize(tmp, k, &fl) && fl.n > 0) {
			rc = decode_interval(&fl, &a);
			/* IntervalStyle sql_standard: a leading '-' with no other
			 * explicit sign negates every field ('-1 2:00' is -1 day
			 * -2 hours; DecodeInterval) */
			bool more = false;
			for (int i = 1; i < fl.n; i++)
				if (fl.f[i][0] == '-' || fl.f[i][0] == '+')
					more = true;
			if (rc == IV_OK && cur_style.interval == INTSTYLE_SQL_STANDARD &&
			    fl.f[0][0] == '-' && !more && b < k && tmp[b] == '-') {
				IvAcc pos = { 0, 0, 0 };
				tmp[b] = ' ';
				if (tokenize(tmp, k, &fl) && fl.n > 0 &&
				    (rc = decode_interval(&fl, &pos)) == IV_OK) {
					a.months = -pos.months;
					a.days = -pos.days;
					a.micros = -pos.micros;
				}
			}
		}
	}
	if (rc == IV_OK && (a.months > INT32_MAX || a.months < INT32_MIN || a.days > INT32_MAX ||
			    a.days < INT32_MIN))
		rc = IV_RANGE;
	if (rc == IV_RANGE)
		return floe_errorf(err, ERRCODE_INTERVAL_FIELD_OVERFLOW,
				   "interval field value out of range: \"%.*s\"",
				   quote_len(s_in, n_in), s_in);
	if (rc != IV_OK)
		return floe_errorf(err, ERRCODE_INVALID_DATETIME_FORMAT,
				   "invalid input syntax for type interval: \"%.*s\"",
				   quote_len(s_in, n_in), s_in);
	out->months = (int32_t)a.months;
	out->days = (int32_t)a.days;
	out->micros = a.micros;
	return FLOE_OK;
}

/* ------------------------------------------------------------------ */
/* Arithmetic                                                          */
/* ------------------------------------------------------------------ */

static int
ts_range(floe_error *err)
{
	return floe_errorf(err, ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
}

int
datetime_date_to_timestamp(int32_t d, int64_t *out, floe_error *err)
{
	if (d == DATE_NOEND || d == DATE_NOBEGIN) {
		*out = d == DATE_NOEND ? TS_NOEND : TS_NOBEGIN;
		return FLOE_OK;
	}
	int128 t = (int128)d * USECS_PER_DAY;
	if (t < TS_MIN_USECS || t > TS_MAX_USECS)
		return floe_errorf(err, ERRCODE_DATETIME_FIELD_OVERFLOW,
				   "date out of range for timestamp");
	*out = (int64_t)t;
	return FLOE_OK;
}

int
datetime_timestamp_to_date(int64_t ts, int32_t *out, floe_error *err)
{
	if (ts == TS_NOEND || ts == TS_NOBEGIN) {
		*out = ts == TS_NOEND ? DATE_NOEND : DATE_NOBEGIN;
		return FLOE_OK;
	}
	*out = (int32_t)floordiv(ts, USECS_PER_DAY);
	return FLOE_OK;
}

/* Add months to a local timestamp, clamping the day to the month's end. */
static int
add_months_local(int64_t *t, int32_t months, floe_error *err)
{
	int64_t days = floordiv(*t, USECS_PER_DAY);
	int64_t tod = *t - days * USECS_PER_DAY;
	int64_t y;
	int m, d;
	datetime_civil_from_days(days, &y, &m, &d);
	int64_t mm = y * 12 + (m - 1) + months;
	y = floordiv(mm, 12);
	m = (int)(mm - y * 12) + 1;
	if (d > days_in_month(y, m))
		d = days_in_month(y, m);
	if (y > 300000 || y < -5000)
		return ts_range(err);
	*t = datetime_days_from_civil(y, m, d) * USECS_PER_DAY + tod;
	return FLOE_OK;
}

/*
 * timestamp_pl_interval / timestamptz_pl_interval: months, then days, each
 * step on the local calendar (for timestamptz: converted back to UTC after
 * each step with the session zone, as PostgreSQL does), then micros.
 */
int
datetime_add_interval(int64_t ts, Interval iv, bool with_tz, int64_t *out, floe_error *err)
{
	if (ts == TS_NOBEGIN || ts == TS_NOEND) {
		*out = ts;
		return FLOE_OK;
	}
	int64_t t = ts;
	if (iv.months != 0) {
		if (with_tz)
			t = datetime_timestamptz_to_local(t);
		TRY(add_months_local(&t, iv.months, err));
		if (with_tz)
			t = datetime_local_to_utc(t);
	}
	if (iv.days != 0) {
		int64_t dd;
		if (with_tz)
			t = datetime_timestamptz_to_local(t);
		if (__builtin_mul_overflow((int64_t)iv.days, USECS_PER_DAY, &dd) ||
		    __builtin_add_overflow(t, dd, &t))
			return ts_range(err);
		if (with_tz)
			t = datetime_local_to_utc(t);
	}
	if (__builtin_add_overflow(t, iv.micros, &t) || t < TS_MIN_USECS || t > TS_MAX_USECS)
		return ts_range(err);
	*out = t;
	return FLOE_OK;
}

int
datetime_date_add_days(int32_t d, int64_t days, int32_t *out, floe_error *err)
{
	if (d == DATE_NOEND || d == DATE_NOBEGIN) {
		*out = d;
		return FLOE_OK;
	}
	int64_t r = (int64_t)d + days;
	if (days > INT32_MAX || days < INT32_MIN || r < DATE_MIN_DAYS || r > DATE_MAX_DAYS)
		return floe_errorf(err, ERRCODE_DATETIME_FIELD_OVERFLOW, "date out of range");
	*out = (int32_t)r;
	return FLOE_OK;
}

static int
iv_range(floe_error *err)
{
	return floe_errorf(err, ERRCODE_DATETIME_FIELD_OVERFLOW, "interval out of range");
}

int
datetime_interval_add(Interval a, Interval b, Interval *out, floe_error *err)
{
	if (__builtin_add_overflow(a.months, b.months, &out->months) ||
	    __builtin_add_overflow(a.days, b.days, &out->days) ||
	    __builtin_add_overflow(a.micros, b.micros, &out->micros))
		return iv_range(err);
	return FLOE_OK;
}

int
datetime_interval_neg(Interval a, Interval *out, floe_error *err)
{
	if (a.months == INT32_MIN || a.days == INT32_MIN || a.micros == INT64_MIN)
		return iv_range(err);
	out->months = -a.months;
	out->days = -a.days;
	out->micros = -a.micros;
	return FLOE_OK;
}

/* PostgreSQL's TSROUND: round to microsecond precision. */
static double
tsround(double j)
{
	return rint(j * 1000000.0) / 1000000.0;
}

static bool
fits_i32(double x)
{
	return x >= (double)INT32_MIN && x < -(double)INT32_MIN;
}

/* interval_mul: fractional months cascade into days, days into seconds. */
int
datetime_interval_mul(Interval a, double f, Interval *out, floe_error *err)
{
	double r = a.months * f;
	Interval res;
	if (isnan(r) || !fits_i32(r))
		return iv_range(err);
	res.months = (int32_t)r;
	r = a.days * f;
	if (isnan(r) || !fits_i32(r))
		return iv_range(err);
	res.days = (int32_t)r;
	double month_rem_days = tsround((a.months * f - res.months) * DAYS_PER_MONTH);
	double sec_rem = tsround((a.days * f - res.days + month_rem_days -
				  (int)month_rem_days) * 86400.0);
	if (fabs(sec_rem) >= 86400.0) {
		res.days += (int)(sec_rem / 86400.0);
		sec_rem -= (int)(sec_rem / 86400.0) * 86400.0;
	}
	res.days += (int32_t)month_rem_days;
	r = rint((double)a.micros * f + sec_rem * 1e6);
	if (isnan(r) || !(r >= -9223372036854775808.0 && r < 9223372036854775808.0))
		return iv_range(err);
	res.micros = (int64_t)r;
	*out = res;
	return FLOE_OK;
}

static int128
iv_key(Interval a)
{
	return ((int128)a.months * DAYS_PER_MONTH + a.days) * (int128)USECS_PER_DAY + a.micros;
}

int
datetime_interval_cmp(Interval a, Interval b)
{
	int128 x = iv_key(a), y = iv_key(b);
	return x < y ? -1 : x > y;
}

Interval
datetime_justify_hours(Interval a)
{
	int64_t d = a.micros / USECS_PER_DAY;
	a.micros -= d * USECS_PER_DAY;
	a.days += (int32_t)d;
	if (a.days > 0 && a.micros < 0) {
		a.micros += USECS_PER_DAY;
		a.days--;
	} else if (a.days < 0 && a.micros > 0) {
		a.micros -= USECS_PER_DAY;
		a.days++;
	}
	return a;
}

Interval
datetime_justify_days(Interval a)
{
	int32_t m = a.days / DAYS_PER_MONTH;
	a.days -= m * DAYS_PER_MONTH;
	a.months += m;
	if (a.months > 0 && a.days < 0) {
		a.days += DAYS_PER_MONTH;
		a.months--;
	} else if (a.months < 0 && a.days > 0) {
		a.days -= DAYS_PER_MONTH;
		a.months++;
	}
	return a;
}

Interval
datetime_justify_interval(Interval a)
{
	if ((a.days > 0 && a.micros > 0) || (a.days < 0 && a.micros < 0)) {
		int32_t wm = a.days / DAYS_PER_MONTH;
		a.days -= wm * DAYS_PER_MONTH;
		a.months += wm;
	}
	int64_t wd = a.micros / USECS_PER_DAY;
	a.micros -= wd * USECS_PER_DAY;
	a.days += (int32_t)wd;
	int32_t wm = a.days / DAYS_PER_MONTH;
	a.days -= wm * DAYS_PER_MONTH;
	a.months += wm;
	if (a.months > 0 && (a.days < 0 || (a.days == 0 && a.micros < 0))) {
		a.days += DAYS_PER_MONTH;
		a.months--;
	} else if (a.months < 0 && (a.days > 0 || (a.days == 0 && a.micros > 0))) {
		a.days -= DAYS_PER_MONTH;
		a.months++;
	}
	if (a.days > 0 && a.micros < 0) {
		a.micros += USECS_PER_DAY;
		a.days--;
	} else if (a.days < 0 && a.micros > 0) {
		a.micros -= USECS_PER_DAY;
		a.days++;
	}
	return a;
}

int
datetime_timestamp_diff(int64_t a, int64_t b, Interval *out, floe_error *err)
{
	if (a == TS_NOBEGIN || a == TS_NOEND || b == TS_NOBEGIN || b == TS_NOEND)
		return floe_errorf(err, ERRCODE_DATETIME_FIELD_OVERFLOW, "cannot subtract infinite timestamps");
	Interval r = { 0, 0, 0 };
	if (__builtin_sub_overflow(a, b, &r.micros))
		return iv_range(err);
	*out = datetime_justify_hours(r);
	return FLOE_OK;
}

/* ------------------------------------------------------------------ */
/* date_trunc / extract / make_timestamp                               */
/* ------------------------------------------------------------------ */

enum { FLD_BAD = 0, FLD_USEC, FLD_MSEC, FLD_SEC, FLD_MIN, FLD_HOUR, FLD_DAY, FLD_WEEK,
       FLD_MONTH, FLD_QUARTER, FLD_YEAR, FLD_DECADE, FLD_CENTURY, FLD_MILLENNIUM,
       FLD_DOW, FLD_ISODOW, FLD_DOY, FLD_EPOCH, FLD_ISOYEAR, FLD_JULIAN, FLD_TZ,
       FLD_TZ_HOUR, FLD_TZ_MIN };

static int
field_from_name(const char *name)
{
	static const struct { const char *n; int f; } t[] = {
		{ "microseconds", FLD_USEC }, { "microsecond", FLD_USEC }, { "us", FLD_USEC },
		{ "usec", FLD_USEC }, { "usecs", FLD_USEC },
		{ "milliseconds", FLD_MSEC }, { "millisecond", FLD_MSEC }, { "ms", FLD_MSEC },
		{ "msec", FLD_MSEC }, { "msecs", FLD_MSEC },
		{ "second", FLD_SEC }, { "seconds", FLD_SEC }, { "sec", FLD_SEC }, { "secs", FLD_SEC },
		{ "s", FLD_SEC },
		{ "minute", FLD_MIN }, { "minutes", FLD_MIN }, { "min", FLD_MIN }, { "mins", FLD_MIN },
		{ "m", FLD_MIN },
		{ "hour", FLD_HOUR }, { "hours", FLD_HOUR }, { "h", FLD_HOUR }, { "hr", FLD_HOUR },
		{ "hrs", FLD_HOUR },
		{ "day", FLD_DAY }, { "days", FLD_DAY }, { "d", FLD_DAY },
		{ "week", FLD_WEEK }, { "weeks", FLD_WEEK }, { "w", FLD_WEEK },
		{ "month", FLD_MONTH }, { "months", FLD_MONTH }, { "mon", FLD_MONTH },
		{ "mons", FLD_MONTH },
		{ "quarter", FLD_QUARTER }, { "qtr", FLD_QUARTER },
		{ "year", FLD_YEAR }, { "years", FLD_YEAR }, { "y", FLD_YEAR }, { "yr", FLD_YEAR },
		{ "yrs", FLD_YEAR },
		{ "decade", FLD_DECADE }, { "decades", FLD_DECADE }, { "dec", FLD_DECADE },
		{ "century", FLD_CENTURY }, { "centuries", FLD_CENTURY }, { "c", FLD_CENTURY },
		{ "cent", FLD_CENTURY },
		{ "millennium", FLD_MILLENNIUM }, { "millennia", FLD_MILLENNIUM },
		{ "mil", FLD_MILLENNIUM }, { "mils", FLD_MILLENNIUM },
		{ "dow", FLD_DOW }, { "isodow", FLD_ISODOW }, { "doy", FLD_DOY },
		{ "epoch", FLD_EPOCH }, { "isoyear", FLD_ISOYEAR }, { "julian", FLD_JULIAN },
		{ "j", FLD_JULIAN }, { "timezone", FLD_TZ }, { "timezone_hour", FLD_TZ_HOUR },
		{ "timezone_minute", FLD_TZ_MIN },
	};
	char low[32];
	size_t n = strlen(name);
	if (n >= sizeof low)
		return FLD_BAD;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(low, t[i].n) == 0)
			return t[i].f;
	return FLD_BAD;
}

/* PostgreSQL quotes the unit lower-cased (downcase_truncate_identifier). */
static const char *
lower_unit(const char *field, char *buf, size_t n)
{
	size_t i = 0;
	for (; field[i] && i + 1 < n; i++)
		buf[i] = (char)tolower((unsigned char)field[i]);
	buf[i] = '\0';
	return buf;
}

/* ISO 8601 week-numbering: day of week Monday = 1. */
static int
iso_dow(int64_t days)
{
	int w = (int)(((days % 7) + 7 + 3) % 7);   /* 1970-01-01 was a Thursday */
	return w + 1;
}

static int64_t
iso_year_start(int64_t y)   /* Monday of ISO week 1 of year y, in days */
{
	int64_t jan4 = datetime_days_from_civil(y, 1, 4);
	return jan4 - (iso_dow(jan4) - 1);
}

static void
iso_week(int64_t days, int64_t *iso_year, int *week)
{
	int64_t y;
	int m, d;
	datetime_civil_from_days(days, &y, &m, &d);
	int64_t start = iso_year_start(y + 1);
	if (days >= start)
		y++;
	else {
		start = iso_year_start(y);
		if (days < start) {
			y--;
			start = iso_year_start(y);
		}
	}
	*iso_year = y;
	*week = (int)((days - start) / 7 + 1);
}

static const char *
type_word(bool with_tz)
{
	return with_tz ? "timestamp with time zone" : "timestamp without time zone";
}

int
datetime_trunc(const char *field, int64_t ts, bool with_tz, int64_t *out, floe_error *err)
{
	int f = field_from_name(field);
	if (ts == TS_NOBEGIN || ts == TS_NOEND) {
		if (f == FLD_BAD)
			goto bad;
		*out = ts;
		return FLOE_OK;
	}
	int32_t east = with_tz ? datetime_tz_offset_utc(ts) : 0;
	int64_t t = ts + (int64_t)east * USECS_PER_SEC;
	int64_t days = floordiv(t, USECS_PER_DAY);
	int64_t y;
	int m, d;
	datetime_civil_from_days(days, &y, &m, &d);
	switch (f) {
	case FLD_USEC: break;
	case FLD_MSEC: t = floordiv(t, 1000) * 1000; break;
	case FLD_SEC: t = floordiv(t, USECS_PER_SEC) * USECS_PER_SEC; break;
	case FLD_MIN: t = floordiv(t, USECS_PER_MIN) * USECS_PER_MIN; break;
	case FLD_HOUR: t = floordiv(t, USECS_PER_HOUR) * USECS_PER_HOUR; break;
	case FLD_DAY: t = days * USECS_PER_DAY; break;
	case FLD_WEEK: t = (days - (iso_dow(days) - 1)) * USECS_PER_DAY; break;
	case FLD_MONTH: t = datetime_days_from_civil(y, m, 1) * USECS_PER_DAY; break;
	case FLD_QUARTER:
		t = datetime_days_from_civil(y, ((m - 1) / 3) * 3 + 1, 1) * USECS_PER_DAY;
		break;
	case FLD_YEAR: t = datetime_days_from_civil(y, 1, 1) * USECS_PER_DAY; break;
	case FLD_DECADE: {
		/* PostgreSQL's rules (timestamp_trunc), astronomical years */
		int64_t yy = y > 0 ? (y / 10) * 10 : -((8 - (y - 1)) / 10) * 10;
		t = datetime_days_from_civil(yy, 1, 1) * USECS_PER_DAY;
		break;
	}
	case FLD_CENTURY: {
		int64_t yy = y > 0 ? ((y + 99) / 100) * 100 - 99
				   : -((99 - (y - 1)) / 100) * 100 + 1;
		t = datetime_days_from_civil(yy, 1, 1) * USECS_PER_DAY;
		break;
	}
	case FLD_MILLENNIUM: {
		int64_t yy = y > 0 ? ((y + 999) / 1000) * 1000 - 999
				   : -((999 - (y - 1)) / 1000) * 1000 + 1;
		t = datetime_days_from_civil(yy, 1, 1) * USECS_PER_DAY;
		break;
	}
	default:
		goto bad;
	}
	/* PostgreSQL keeps the original offset for units below a day and
	 * re-resolves the zone for day and above */
	if (with_tz)
		t = f >= FLD_DAY ? datetime_local_to_utc(t) : t - (int64_t)east * USECS_PER_SEC;
	if (t < TS_MIN_USECS)
		return ts_range(err);
	*out = t;
	return FLOE_OK;
bad: {
		char lb[64];
		if (f == FLD_TZ || f == FLD_TZ_HOUR || f == FLD_TZ_MIN)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "unit \"%s\" not supported for type %s",
					   lower_unit(field, lb, sizeof lb), type_word(with_tz));
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "unit \"%s\" not recognized for type %s",
				   lower_unit(field, lb, sizeof lb), type_word(with_tz));
	}
}

int
datetime_extract(const char *field, TypeId kind, int64_t v, double *out, floe_error *err)
{
	char lb[64];
	int f = field_from_name(field);
	const char *tname = kind == TYPE_DATE ? "date" : kind == TYPE_TIME ? "time without time zone"
			  : type_word(kind == TYPE_TIMESTAMPTZ);
	if (f == FLD_BAD)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "unit \"%s\" not recognized for type %s", lower_unit(field, lb, sizeof lb), tname);
	bool inf = (kind == TYPE_DATE && (v == DATE_NOEND || v == DATE_NOBEGIN)) ||
		   ((kind == TYPE_TIMESTAMP || kind == TYPE_TIMESTAMPTZ) &&
		    (v == TS_NOEND || v == TS_NOBEGIN));
	if (inf) {
		bool pos = v > 0;
		if (f == FLD_EPOCH || f == FLD_YEAR || f == FLD_DECADE || f == FLD_CENTURY ||
		    f == FLD_MILLENNIUM || f == FLD_JULIAN || f == FLD_ISOYEAR) {
			*out = pos ? INFINITY : -INFINITY;
			return FLOE_OK;
		}
		*out = NAN;   /* PostgreSQL returns NULL; callers check isnan */
		return FLOE_OK;
	}
	int64_t t;
	if (kind == TYPE_DATE) {
		if (f <= FLD_HOUR || f == FLD_TZ || f == FLD_TZ_HOUR || f == FLD_TZ_MIN)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "unit \"%s\" not supported for type date",
					   lower_unit(field, lb, sizeof lb));
		t = v * USECS_PER_DAY;
	} else if (kind == TYPE_TIME) {
		t = v;
		switch (f) {
		case FLD_USEC: *out = (double)(t % USECS_PER_MIN); return FLOE_OK;
		case FLD_MSEC: *out = (double)(t % USECS_PER_MIN) / 1000.0; return FLOE_OK;
		case FLD_SEC: *out = (double)(t % USECS_PER_MIN) / 1e6; return FLOE_OK;
		case FLD_MIN: *out = (double)(t / USECS_PER_MIN % 60); return FLOE_OK;
		case FLD_HOUR: *out = (double)(t / USECS_PER_HOUR); return FLOE_OK;
		case FLD_EPOCH: *out = (double)t / 1e6; return FLOE_OK;
		default:
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "unit \"%s\" not supported for type %s", lower_unit(field, lb, sizeof lb), tname);
		}
	} else
		t = v;
	int32_t east = 0;
	if (kind == TYPE_TIMESTAMPTZ) {
		east = datetime_tz_offset_utc(t);
		if (f == FLD_EPOCH) {
			*out = (double)t / 1e6;
			return FLOE_OK;
		}
		t += (int64_t)east * USECS_PER_SEC;
	}
	int64_t days = floordiv(t, USECS_PER_DAY);
	int64_t tod = t - days * USECS_PER_DAY;
	int64_t y, iy;
	int m, d, wk;
	datetime_civil_from_days(days, &y, &m, &d);
	switch (f) {
	case FLD_USEC: *out = (double)(tod % USECS_PER_MIN); break;
	case FLD_MSEC: *out = (double)(tod % USECS_PER_MIN) / 1000.0; break;
	case FLD_SEC: *out = (double)(tod % USECS_PER_MIN) / 1e6; break;
	case FLD_MIN: *out = (double)(tod / USECS_PER_MIN % 60); break;
	case FLD_HOUR: *out = (double)(tod / USECS_PER_HOUR); break;
	case FLD_DAY: *out = d; break;
	case FLD_MONTH: *out = m; break;
	case FLD_QUARTER: *out = (m - 1) / 3 + 1; break;
	case FLD_YEAR: *out = (double)(y > 0 ? y : y - 1); break;
	case FLD_DECADE: *out = (double)(y >= 0 ? y / 10 : -((8 - (y - 1)) / 10)); break;
	case FLD_CENTURY: *out = (double)(y > 0 ? (y + 99) / 100 : -((99 - (y - 1)) / 100)); break;
	case FLD_MILLENNIUM: *out = (double)(y > 0 ? (y + 999) / 1000 : -((999 - (y - 1)) / 1000)); break;
	case FLD_DOW: *out = iso_dow(days) % 7; break;
	case FLD_ISODOW: *out = iso_dow(days); break;
	case FLD_DOY: *out = (double)(days - datetime_days_from_civil(y, 1, 1) + 1); break;
	case FLD_WEEK: iso_week(days, &iy, &wk); *out = wk; break;
	case FLD_ISOYEAR:
		iso_week(days, &iy, &wk);
		*out = (double)(iy > 0 ? iy : iy - 1);
		break;
	case FLD_EPOCH: *out = (double)t / 1e6; break;
	case FLD_JULIAN:
		*out = (double)(days + 2440588) + (double)tod / (double)USECS_PER_DAY;
		break;
	case FLD_TZ:
	case FLD_TZ_HOUR:
	case FLD_TZ_MIN:
		if (kind != TYPE_TIMESTAMPTZ)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "unit \"%s\" not supported for type %s", lower_unit(field, lb, sizeof lb), tname);
		*out = f == FLD_TZ ? east : f == FLD_TZ_HOUR ? east / 3600 : (east / 60) % 60;
		break;
	default:
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "unit \"%s\" not supported for type %s", lower_unit(field, lb, sizeof lb), tname);
	}
	return FLOE_OK;
}

int
datetime_extract_interval(const char *field, Interval iv, double *out, floe_error *err)
{
	char lb[64];
	int f = field_from_name(field);
	int64_t us = iv.micros;
	switch (f) {
	case FLD_USEC: *out = (double)(us % USECS_PER_MIN); break;
	case FLD_MSEC: *out = (double)(us % USECS_PER_MIN) / 1000.0; break;
	case FLD_SEC: *out = (double)(us % USECS_PER_MIN) / 1e6; break;
	case FLD_MIN: *out = (double)(us / USECS_PER_MIN % 60); break;
	case FLD_HOUR: *out = (double)(us / USECS_PER_HOUR); break;
	case FLD_DAY: *out = iv.days; break;
	case FLD_MONTH: *out = iv.months % 12; break;
	case FLD_QUARTER: *out = (iv.months % 12) / 3 + 1; break;
	case FLD_YEAR: *out = iv.months / 12; break;
	case FLD_DECADE: *out = iv.months / 120; break;
	case FLD_CENTURY: *out = iv.months / 1200; break;
	case FLD_MILLENNIUM: *out = iv.months / 12000; break;
	case FLD_EPOCH:
		*out = (double)us / 1e6 +
		       ((double)(iv.months / 12) * 365.25 * 86400.0) +
		       ((double)(iv.months % 12) * 30.0 * 86400.0) + (double)iv.days * 86400.0;
		break;
	default:
		if (f == FLD_BAD)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "unit \"%s\" not recognized for type interval",
					   lower_unit(field, lb, sizeof lb));
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "unit \"%s\" not supported for type interval",
				   lower_unit(field, lb, sizeof lb));
	}
	return FLOE_OK;
}

int
datetime_make_timestamp(int64_t y, int mo, int d, int h, int mi, double sec, int64_t *out,
			floe_error *err)
{
	if (y == 0 || !datetime_valid_civil(y < 0 ? y + 1 : y, mo, d))
		return floe_errorf(err, ERRCODE_DATETIME_FIELD_OVERFLOW,
				   "date field value out of range: %lld-%02d-%02d", (long long)y, mo, d);
	if (h < 0 || h > 24 || mi < 0 || mi > 59 || !(sec >= 0) || sec > 60 ||
	    (h == 24 && (mi || sec > 0)))
		return floe_errorf(err, ERRCODE_DATETIME_FIELD_OVERFLOW,
				   "time field value out of range: %d:%02d:%02g", h, mi, sec);
	int64_t yy = y < 0 ? y + 1 : y;
	if (yy > 300000 || yy < -5000)
		return ts_range(err);
	int128 t = (int128)datetime_days_from_civil(yy, mo, d) * USECS_PER_DAY +
		   (int128)h * USECS_PER_HOUR + (int128)mi * USECS_PER_MIN + (int64_t)rint(sec * 1e6);
	if (t < TS_MIN_USECS || t > TS_MAX_USECS)
		return ts_range(err);
	*out = (int64_t)t;
	return FLOE_OK;
}

/*
 * date_trunc(text, interval) (PostgreSQL's interval_trunc): the interval is
 * split into years/months/days/hours/minutes/seconds/micros (signs as C
 * division leaves them) and the fields below the unit are zeroed.  week is
 * 0A000, an unknown unit 22023.
 */
int
datetime_trunc_interval(const char *field, Interval iv, Interval *out, floe_error *err)
{
	char lb[64];
	int f = field_from_name(field);
	int64_t year = iv.months / 12, mon = iv.months % 12, mday = iv.days;
	int64_t hour = iv.micros / USECS_PER_HOUR, rest = iv.micros % USECS_PER_HOUR;
	int64_t min = rest / USECS_PER_MIN, usec = rest % USECS_PER_MIN;   /* sec + fraction */

	switch (f) {
	case FLD_MILLENNIUM: year = (year / 1000) * 1000; /* FALLTHROUGH */
	case FLD_CENTURY: year = (year / 100) * 100; /* FALLTHROUGH */
	case FLD_DECADE: year = (year / 10) * 10; /* FALLTHROUGH */
	case FLD_YEAR: mon = 0; /* FALLTHROUGH */
	case FLD_QUARTER: mon = 3 * (mon / 3); /* FALLTHROUGH */
	case FLD_MONTH: mday = 0; /* FALLTHROUGH */
	case FLD_DAY: hour = 0; /* FALLTHROUGH */
	case FLD_HOUR: min = 0; /* FALLTHROUGH */
	case FLD_MIN: usec = 0; break;
	case FLD_SEC: usec = (usec / USECS_PER_SEC) * USECS_PER_SEC; break;
	case FLD_MSEC: usec = (usec / 1000) * 1000; break;
	case FLD_USEC: break;
	case FLD_WEEK:
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "unit \"%s\" not supported for type interval",
				   lower_unit(field, lb, sizeof lb));
	default:
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "unit \"%s\" not recognized for type interval",
				   lower_unit(field, lb, sizeof lb));
	}
	out->months = (int32_t)(year * 12 + mon);
	out->days = (int32_t)mday;
	out->micros = hour * USECS_PER_HOUR + min * USECS_PER_MIN + usec;
	return FLOE_OK;
}

/*
 * The offset east of UTC (seconds) of the zone named `name` (as AT TIME ZONE
 * reads it: a zone name, "UTC", or a POSIX-style "+05"/"UTC+3" meaning hours
 * WEST of UTC) at t: UTC micros when is_local is false, else local wall-clock
 * micros (PostgreSQL's DetermineTimeZoneOffset rules).  22023 "time zone
 * \"%s\" not recognized" when unknown.
 */
int
datetime_zone_offset(const char *name, int64_t t, bool is_local, int32_t *east,
		     floe_error *err)
{
	int sign, h, mi, sec;
	const char *p = name;
	int64_t secs = floordiv(t, USECS_PER_SEC);

	if (strcasecmp(name, "UTC") == 0 || strcasecmp(name, "GMT") == 0 ||
	    strcasecmp(name, "Z") == 0 || strcasecmp(name, "Etc/UTC") == 0 ||
	    strcasecmp(name, "Zulu") == 0 || strcasecmp(name, "UCT") == 0) {
		*east = 0;
		return FLOE_OK;
	}
	if ((strncasecmp(p, "UTC", 3) == 0 || strncasecmp(p, "GMT", 3) == 0) &&
	    (p[3] == '+' || p[3] == '-'))
		p += 3;
	if (parse_offset_text(p, &sign, &h, &mi, &sec) == 0) {
		if (h > 15 || mi > 59 || sec > 59)
			goto bad;
		*east = -sign * (h * 3600 + mi * 60 + sec);
		return FLOE_OK;
	}
	char low[16];
	size_t n = strlen(name);
	if (n < sizeof low) {   /* an abbreviation ("EST") wins over a zone name */
		int32_t ab;
		for (size_t i = 0; i <= n; i++)
			low[i] = (char)tolower((unsigned char)name[i]);
		if (zone_abbrev(low, &ab)) {
			*east = ab;
			return FLOE_OK;
		}
	}
	const Zone *z = zone_lookup(name);
	if (!z)
		goto bad;
	*east = is_local ? local_offset(z, secs) : zone_offset(z, secs);
	return FLOE_OK;
bad:
	return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
			   "time zone \"%s\" not recognized", name);
}
