/*
 * The redaction line machine in C: the same decisions as Redactor._step in
 * council_filters/redaction/machine.py, for the plain path (no counts, no extra
 * rules).  Optional: when this module is not built, the Python machine runs.
 * The tests hold the two to the same output byte for byte.
 *
 * It also holds the native prefilter (a SIMD scan for the eleven's triggers)
 * and the whole-descriptor path, so the plain redaction runs here from read
 * to writev without the interpreter lock:
 *   run_all(buf, end, hits, state[, record[, fd]])  one buffer of whole lines
 *   scan(buf, start, end)                           the native prefilter alone
 *   redact_fd(in_fd, out_fd, state[, chunk])        one input, to its end
 *   vector_width([width])                           the scan's width (tests)
 *   Matches(base, n_builtin)                        a multi-pattern scan's matches
 *                                                   as lines and masks
 *   line_slices(buf, cands)                         the candidates' lines, one
 *                                                   object per distinct line
 *   Distinct(buf, start, end, sample, most)         a buffer's distinct lines, for
 *                                                   a scan that reads each once
 *   base64_words(lines, words, least, most)         secret-base64-assignment's proof
 *   value_gate(lines, mode, codes, names, keys, sfx) the assignment family's values
 * state is a list of nine ints, read and written back:
 *   [nr, in_pem, real, prev_real, stray, span, key_len, chain, watch].
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef struct {
    long long nr;
    long in_pem, real, prev_real, stray, span, key_len, chain, watch;
} State;

static int is_ws(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static int is_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
static int is_lower(unsigned char c) { return c >= 'a' && c <= 'z'; }
static int is_b64(unsigned char c) {
    return is_upper(c) || is_lower(c) || is_digit(c) || c == '+' || c == '/' || c == '=';
}
static int is_alnum(unsigned char c) { return is_upper(c) || is_lower(c) || is_digit(c); }
static int in_az_space(unsigned char c) { return is_upper(c) || c == ' '; }

static int starts(const unsigned char *s, Py_ssize_t n, Py_ssize_t at, const char *lit) {
    size_t k = strlen(lit);
    return at >= 0 && (Py_ssize_t)(at + k) <= n && memcmp(s + at, lit, k) == 0;
}

/* ----- PEM markers ------------------------------------------------------ */
/* "-----<word> [A-Z ]*PRIVATE KEY-----" starting at p (word: "BEGIN" or
 * "END"); returns the end of the match or -1. */
static Py_ssize_t marker_at(const unsigned char *s, Py_ssize_t n, Py_ssize_t p, const char *head) {
    Py_ssize_t h = (Py_ssize_t)strlen(head);
    if (!starts(s, n, p, head)) return -1;
    Py_ssize_t e = p + h;
    while (e < n && in_az_space(s[e])) e++;
    if (e - (p + h) < 11 || memcmp(s + e - 11, "PRIVATE KEY", 11) != 0) return -1;
    if (!starts(s, n, e, "-----")) return -1;
    return e + 5;
}

static int marker_search(const unsigned char *s, Py_ssize_t n, const char *head) {
    Py_ssize_t h = (Py_ssize_t)strlen(head);
    const unsigned char *p = s, *stop = s + n;
    while (p < stop) {
        const unsigned char *q = memchr(p, '-', (size_t)(stop - p));
        if (q == NULL || stop - q < h) return 0;
        if (marker_at(s, n, q - s, head) >= 0) return 1;
        p = q + 1;
    }
    return 0;
}
#define BEGIN_HEAD "-----BEGIN "
#define END_HEAD "-----END "

/* -----END [A-Z ]*PRIVATE KEY-----[ws]*$ somewhere in the line. */
static int end_at_tail(const unsigned char *s, Py_ssize_t n) {
    Py_ssize_t t = n;
    while (t > 0 && is_ws(s[t - 1])) t--;
    if (t < 16 + 9 || memcmp(s + t - 16, "PRIVATE KEY-----", 16) != 0) return 0;
    Py_ssize_t r = t - 5;  /* end of "PRIVATE KEY" */
    while (r > 0 && in_az_space(s[r - 1])) r--;
    /* the run [r, t-5) must start with "END " and follow "-----" */
    return r >= 5 && memcmp(s + r - 5, "-----", 5) == 0 && t - 5 - r >= 4 + 11 &&
           memcmp(s + r, "END ", 4) == 0;
}

/* ----- decoration ------------------------------------------------------- */
static int deco_first(unsigned char c) {
    return is_ws(c) || c == '>' || c == '|' || c == '-' || c == '*' || c == '+' || is_digit(c);
}
static int at_marker(const unsigned char *s, Py_ssize_t n, Py_ssize_t p) {
    return starts(s, n, p, "-----BEGIN") || starts(s, n, p, "-----END");
}

/* The line without decoration: [*b, *e). */
static void strip_text(const unsigned char *s, Py_ssize_t n, Py_ssize_t *b, Py_ssize_t *e) {
    Py_ssize_t pos = 0;
    while (pos < n && deco_first(s[pos]) && !at_marker(s, n, pos)) {
        Py_ssize_t start = pos, q, g;
        /* a: spaces and bars */
        while (pos < n && is_ws(s[pos])) pos++;
        while (pos < n && (s[pos] == '>' || s[pos] == '|')) {
            pos++;
            while (pos < n && is_ws(s[pos])) pos++;
        }
        /* b: one list marker and its spaces */
        q = -1;
        if (pos < n && (s[pos] == '-' || s[pos] == '*' || s[pos] == '+')) {
            if (pos + 1 < n && is_ws(s[pos + 1])) q = pos + 1;
        }
        if (q < 0 && pos < n && is_digit(s[pos])) {
            Py_ssize_t d = pos;
            while (d < n && is_digit(s[d])) d++;
            if (d < n && (s[d] == '.' || s[d] == ')') && d + 1 < n && is_ws(s[d + 1])) q = d + 1;
        }
        if (q >= 0) {
            while (q < n && is_ws(s[q])) q++;
            pos = q;
        }
        /* c: a gutter */
        if (pos < n && is_digit(s[pos])) {
            Py_ssize_t d = pos;
            while (d < n && is_digit(s[d])) d++;
            while (d < n && is_ws(s[d])) d++;
            if (d < n && s[d] == '|') {
                d++;
                while (d < n && is_ws(s[d])) d++;
                pos = d;
            }
        }
        /* d: '+' signs */
        while (pos < n && s[pos] == '+') pos++;
        /* g: spaces */
        g = pos;
        while (pos < n && is_ws(s[pos])) pos++;
        if (pos < n && s[pos] == '-' && g == pos) {
            if (starts(s, n, pos, "------")) {
                Py_ssize_t d = pos;
                while (d < n && s[d] == '-') d++;
                pos = d - 5;
            }
            if (!at_marker(s, n, pos)) pos += 1;
            while (pos < n && is_ws(s[pos])) pos++;
        }
        if (pos == start) break;
    }
    Py_ssize_t end = n;
    while (end > pos && is_ws(s[end - 1])) end--;
    *b = pos;
    *e = end;
}

/* ----- body tests ------------------------------------------------------- */
/* What a body line holds, in one pass: all base64, and which of the classes
 * the rules ask about occur in it. */
enum { BC_GZ = 1 /* [G-Zg-z+/=] */, BC_DS = 2 /* [0-9+/=] */, BC_SYM = 4 /* [+/=] */,
       BC_B64 = 8 };
static unsigned char BODY_CLASS[256];
static void init_body_classes(void) {
    for (int c = 0; c < 256; c++) {
        unsigned char u = (unsigned char)c, bits = 0;
        int sym = u == '+' || u == '/' || u == '=';
        if (is_b64(u)) bits |= BC_B64;
        if ((u >= 'G' && u <= 'Z') || (u >= 'g' && u <= 'z') || sym) bits |= BC_GZ;
        if (is_digit(u) || sym) bits |= BC_DS;
        if (sym) bits |= BC_SYM;
        BODY_CLASS[c] = bits;
    }
}
/* 0 when s[0:n) is empty or not all base64; else BC_B64 and the classes seen. */
static unsigned b64_body(const unsigned char *s, Py_ssize_t n) {
    unsigned seen = 0;
    if (n == 0) return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned c = BODY_CLASS[s[i]];
        if (!(c & BC_B64)) return 0;
        seen |= c;
    }
    return seen;
}
static int one_word(const unsigned char *s, Py_ssize_t n) {
    Py_ssize_t i = 0;
    if (i < n && is_upper(s[i])) i++;
    if (i >= n) return 0;
    for (; i < n; i++)
        if (!is_lower(s[i])) return 0;
    return 1;
}
static int begin_alone(const unsigned char *s, Py_ssize_t n) {
    Py_ssize_t e = marker_at(s, n, 0, BEGIN_HEAD);
    if (e < 0) return 0;
    while (e < n && is_ws(s[e])) e++;
    return e == n;
}

/* ----- credentials ------------------------------------------------------ */
/* The run classes of the credential patterns, a bit each in one table. */
enum { CL_SK_WIDE = 1, CL_ALNUM = 2, CL_AIZA = 1, CL_PAT = 4, CL_AKIA = 8, CL_BEARER = 16,
       CL_AUTH = 32 };
static unsigned char RUN_CLASS[256];
static void init_run_classes(void) {
    for (int c = 0; c < 256; c++) {
        unsigned char u = (unsigned char)c, bits = 0;
        if (is_alnum(u)) bits |= CL_SK_WIDE | CL_ALNUM | CL_PAT | CL_BEARER | CL_AUTH;
        if (u == '_' || u == '-') bits |= CL_SK_WIDE;
        if (u == '_') bits |= CL_PAT;
        if (is_digit(u) || is_upper(u)) bits |= CL_AKIA;
        if (u == '.' || u == '_' || u == '~' || u == '+' || u == '/' || u == '-')
            bits |= CL_BEARER | CL_AUTH;
        if (u == ' ') bits |= CL_AUTH;
        RUN_CLASS[c] = bits;
    }
}
static int run_at_least(const unsigned char *s, Py_ssize_t n, Py_ssize_t at, int cl, Py_ssize_t k) {
    if (n - at < k) return 0;
    for (Py_ssize_t i = 0; i < k; i++)
        if (!(RUN_CLASS[s[at + i]] & cl)) return 0;
    return 1;
}
/* A credential anywhere in the line: the native prefilter without BEGIN. */
static Py_ssize_t find_trigger(const unsigned char *s, Py_ssize_t pos, Py_ssize_t n, int begin,
                               int *kind);
static int credential(const unsigned char *s, Py_ssize_t n) {
    int kind;
    return find_trigger(s, 0, n, 0, &kind) < n;
}

/* ----- the machine ------------------------------------------------------ */
enum { KEEP, CREDENTIAL, PEM };

/* One line through the machine.  known_credential: the caller has already
 * confirmed a credential shape in this line (the scan found it), so the
 * line's own credential search is not repeated. */
static int step(State *st, const unsigned char *line, Py_ssize_t n, int known_credential) {
    int pem_now = 0;
    Py_ssize_t b = 0, e = 0;
    int have_body = 0;
    st->nr += 1;
    if (!st->in_pem) {
        if (marker_search(line, n, BEGIN_HEAD)) {
            st->watch = 0;
            if (marker_search(line, n, END_HEAD)) {
                pem_now = 1;
            } else {
                strip_text(line, n, &b, &e);
                have_body = 1;
                st->in_pem = 1;
                st->stray = st->span = st->key_len = 0;
                st->chain = 0;
                st->real = begin_alone(line + b, e - b);
            }
        } else if (st->watch) {
            strip_text(line, n, &b, &e);
            have_body = 1;
            const unsigned char *body = line + b;
            Py_ssize_t bn = e - b;
            unsigned cls = bn >= 12 ? b64_body(body, bn) : 0;
            if (cls && (((cls & BC_GZ) && (cls & BC_DS)) ||
                        (st->chain && bn == st->key_len && !one_word(body, bn)))) {
                st->in_pem = 1;
                st->stray = st->span = 0;
                st->real = st->prev_real && (cls & BC_SYM);
                st->watch = 0;
                st->chain = 1;
            } else {
                st->watch -= 1;
                st->chain = 0;
            }
        }
    }
    if (st->in_pem) {
        int release = 0;
        if (end_at_tail(line, n)) {
            st->prev_real = st->real;
            st->in_pem = 0;
            st->watch = 5;
        } else if (st->real) {
            if (!have_body) { strip_text(line, n, &b, &e); have_body = 1; }
            if (e - b >= 12 && b64_body(line + b, e - b)) {
                st->key_len = (long)(e - b);
                st->chain = 1;
            }
        } else {
            st->span += 1;
            if (st->span > 400) {
                st->in_pem = 0;
                release = 1;
            } else {
                if (!have_body) { strip_text(line, n, &b, &e); have_body = 1; }
                const unsigned char *body = line + b;
                Py_ssize_t bn = e - b;
                if (bn > 0) {
                    unsigned cls = bn >= 12 ? b64_body(body, bn) : 0;
                    if (cls && (((cls & BC_GZ) && (bn >= 20 || (cls & BC_DS))) ||
                                (bn == st->key_len && !one_word(body, bn)))) {
                        st->stray = 0;
                        st->key_len = (long)bn;
                        st->chain = 1;
                    } else if (starts(body, bn, 0, "Proc-Type:") || starts(body, bn, 0, "DEK-Info:")) {
                        st->stray = 0;
                    } else if (marker_search(line, n, BEGIN_HEAD)) {
                        if (begin_alone(body, bn)) {
                            st->real = 1;
                            st->span = st->key_len = 0;
                            st->chain = 0;
                        }
                        st->stray = 0;
                    } else {
                        st->stray += 1;
                        if (st->stray >= 3) {
                            st->in_pem = 0;
                            release = 1;
                        }
                    }
                }
            }
        }
        if (!release) pem_now = 1;
    }
    if (pem_now) return PEM;
    if (known_credential || credential(line, n)) return CREDENTIAL;
    return KEEP;
}

/* ----- the native prefilter ---------------------------------------------- */
/* Every built-in trigger holds one of these at a fixed offset from its start:
 *   "k-"  sk-, sk-proj-, sk-ant-      "Iz"  AIza        "KI"  AKIA
 *   "Be"  Bearer                      "n:"  Authorization:
 *   "-B"  -----BEGIN                  "_"   gh[pous]_, ses_, github_pat_
 * so a vector compare of every position against these pairs finds every
 * trigger, and trigger_at() confirms the exact shape at the few positions
 * it reports.  A match never holds a newline, so it lies inside one line. */
/* TRIGGER_CREDENTIAL (1) or TRIGGER_BEGIN (2) when a trigger starts its
 * pair at i, else 0 (begin: 0 leaves the BEGIN marker out). */
enum { TRIGGER_CREDENTIAL = 1, TRIGGER_BEGIN = 2 };
static int trigger_at(const unsigned char *s, Py_ssize_t n, Py_ssize_t i, int begin) {
    switch (s[i]) {
    case 'k':
        if (i < 1 || s[i - 1] != 's' || i + 1 >= n || s[i + 1] != '-') return 0;
        if (starts(s, n, i - 1, "sk-proj-") && run_at_least(s, n, i + 7, CL_SK_WIDE, 20)) return 1;
        if (starts(s, n, i - 1, "sk-ant-") && run_at_least(s, n, i + 6, CL_SK_WIDE, 20)) return 1;
        return run_at_least(s, n, i + 2, CL_ALNUM, 20);
    case 'I':
        return i >= 1 && s[i - 1] == 'A' && starts(s, n, i + 1, "za") &&
               run_at_least(s, n, i + 3, CL_AIZA, 35);
    case 'K':
        return i >= 1 && s[i - 1] == 'A' && starts(s, n, i + 1, "IA") &&
               run_at_least(s, n, i + 3, CL_AKIA, 16);
    case 'B':
        return starts(s, n, i, "Bearer ") && run_at_least(s, n, i + 7, CL_BEARER, 20);
    case 'n':
        return i >= 12 && starts(s, n, i - 12, "Authorization: ") &&
               run_at_least(s, n, i + 3, CL_AUTH, 20);
    case '-':
        return begin && i >= 4 && i + 1 < n && s[i + 1] == 'B' &&
               marker_at(s, n, i - 4, BEGIN_HEAD) >= 0 ? TRIGGER_BEGIN : 0;
    case '_':
        if (i >= 3 && s[i - 3] == 'g' && s[i - 2] == 'h' &&
            (s[i - 1] == 'p' || s[i - 1] == 'o' || s[i - 1] == 'u' || s[i - 1] == 's') &&
            run_at_least(s, n, i + 1, CL_ALNUM, 36))
            return 1;
        if (i >= 3 && starts(s, n, i - 3, "ses_") && run_at_least(s, n, i + 1, CL_ALNUM, 16))
            return 1;
        return i >= 6 && starts(s, n, i - 6, "github_pat_") && run_at_least(s, n, i + 5, CL_PAT, 40);
    }
    return 0;
}

/* The first position in [pos, n) where a trigger is confirmed, or n; *kind
 * gets what it is (TRIGGER_CREDENTIAL or TRIGGER_BEGIN), so the caller need
 * not confirm it again (begin: 0 leaves out the BEGIN marker).
 * Vector code for x86-64: SSE2 always, AVX2 when the processor has it. */
static Py_ssize_t find_trigger_tail(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, int begin,
                                    int *kind) {
    for (; i < n; i++) {
        unsigned char c = s[i];
        if (c == '_' || c == 'k' || c == 'I' || c == 'K' || c == 'B' || c == 'n' || c == '-') {
            int got = trigger_at(s, n, i, begin);
            if (got) {
                *kind = got;
                return i;
            }
        }
    }
    return n;
}

#if defined(__SSE2__)
/* The pair test on one vector width: W (bytes), V (type), the intrinsics. */
#define PAIR_SCAN(W, V, LOAD, SET1, EQ, AND, OR, MOVEMASK)                              \
    const V k = SET1('k'), dash = SET1('-'), I = SET1('I'), z = SET1('z'), K = SET1('K');  \
    const V B = SET1('B'), e = SET1('e'), nn = SET1('n'), colon = SET1(':'), us = SET1('_'); \
    while (i + (W) + 1 <= n) {                                                           \
        V a = LOAD((const V *)(s + i));                                                  \
        V b = LOAD((const V *)(s + i + 1));                                              \
        V m = EQ(a, us);                                                                 \
        m = OR(m, AND(EQ(a, k), EQ(b, dash)));                                           \
        m = OR(m, AND(EQ(a, I), EQ(b, z)));                                              \
        m = OR(m, AND(EQ(a, K), EQ(b, I)));                                              \
        m = OR(m, AND(EQ(a, B), EQ(b, e)));                                              \
        m = OR(m, AND(EQ(a, nn), EQ(b, colon)));                                         \
        m = OR(m, AND(EQ(a, dash), EQ(b, B)));                                           \
        unsigned mask = (unsigned)MOVEMASK(m);                                           \
        while (mask) {                                                                   \
            Py_ssize_t at = i + __builtin_ctz(mask);                                     \
            int got = trigger_at(s, n, at, begin);                                       \
            if (got) {                                                                   \
                *kind = got;                                                             \
                return at;                                                               \
            }                                                                            \
            mask &= mask - 1;                                                            \
        }                                                                                \
        i += (W);                                                                        \
    }                                                                                    \
    return find_trigger_tail(s, i, n, begin, kind);

static Py_ssize_t find_trigger_sse2(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, int begin,
                                    int *kind) {
    PAIR_SCAN(16, __m128i, _mm_loadu_si128, _mm_set1_epi8, _mm_cmpeq_epi8, _mm_and_si128,
              _mm_or_si128, _mm_movemask_epi8)
}

#if defined(__GNUC__) && defined(__x86_64__)
#define HAVE_AVX2_PATH 1
#include <immintrin.h>
__attribute__((target("avx2")))
static Py_ssize_t find_trigger_avx2(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, int begin,
                                    int *kind) {
    PAIR_SCAN(32, __m256i, _mm256_loadu_si256, _mm256_set1_epi8, _mm256_cmpeq_epi8,
              _mm256_and_si256, _mm256_or_si256, _mm256_movemask_epi8)
}
#endif
#endif

static Py_ssize_t (*find_trigger_impl)(const unsigned char *, Py_ssize_t, Py_ssize_t, int, int *) =
#if defined(__SSE2__)
    find_trigger_sse2;
#else
    find_trigger_tail;
#endif

/* The widest scan this build and processor have: 32, 16 or 0 (scalar). */
static int widest(void) {
#if defined(HAVE_AVX2_PATH)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) return 32;
#endif
#if defined(__SSE2__)
    return 16;
#else
    return 0;
#endif
}

/* Use the scan of this width (0, 16 or 32) when it is there; returns the width in use. */
static int set_width(int want) {
    int best = widest();
    if (want > best) want = best;
#if defined(HAVE_AVX2_PATH)
    if (want == 32) {
        find_trigger_impl = find_trigger_avx2;
        return 32;
    }
#endif
#if defined(__SSE2__)
    if (want >= 16) {
        find_trigger_impl = find_trigger_sse2;
        return 16;
    }
#endif
    find_trigger_impl = find_trigger_tail;
    return 0;
}

static void choose_vector_width(void) { set_width(32); }

static Py_ssize_t find_trigger(const unsigned char *s, Py_ssize_t pos, Py_ssize_t n, int begin,
                               int *kind) {
    return find_trigger_impl(s, pos, n, begin, kind);
}

/* Newlines in [p, p + n). */
static Py_ssize_t count_nl(const unsigned char *p, Py_ssize_t n) {
    Py_ssize_t k = 0, i = 0;
#if defined(__SSE2__)
    const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    while (i + 16 <= n) {
        /* Up to 255 blocks add into byte lanes, then the lanes are summed. */
        __m128i acc = zero;
        Py_ssize_t stop = i + 255 * 16;
        if (stop > n) stop = n;
        for (; i + 16 <= stop; i += 16)
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), nl));
        __m128i sums = _mm_sad_epu8(acc, zero);
        k += _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums));
    }
#endif
    for (; i < n; i++) k += p[i] == '\n';
    return k;
}

/* ----- output ------------------------------------------------------------ */
/* Where the output goes: a growing buffer (returned as bytes), a file
 * descriptor (written with writev from slices of the input and a staging
 * area for the small pieces, no copy of the lines that pass), or nowhere
 * (--check: only the counts).  Used without the GIL. */
enum { SINK_COPY, SINK_FD, SINK_NONE };
#define SINK_IOV 512
#define SINK_STAGE (64 * 1024)
#define SINK_SMALL 256
typedef struct {
    int mode, fd, err;   /* err: the errno of a failed write, ENOMEM, or -1 (a signal) */
    PyThreadState **save; /* the released thread state, to check signals on EINTR */
    /* SINK_COPY: the output as pieces, slices of the input (off < 0) or of
     * the placeholder arena (at off), copied once into the bytes returned. */
    struct { const char *p; Py_ssize_t len, off; } *pc;
    Py_ssize_t n_pc, cap_pc;
    char *arena;
    Py_ssize_t arena_len, arena_cap;
    Py_ssize_t len;      /* SINK_COPY: bytes held */
    Py_ssize_t written;  /* bytes delivered (SINK_FD, SINK_NONE) */
    int n_iov;
    Py_ssize_t stage_len;
    struct iovec iov[SINK_IOV];
    char stage[SINK_STAGE];
} Sink;

static int signals_pending(Sink *k) {
    /* EINTR: a signal arrived; let Python's handlers run (Ctrl-C stops the run). */
    int failed;
    PyEval_RestoreThread(*k->save);
    failed = PyErr_CheckSignals() < 0;
    *k->save = PyEval_SaveThread();
    if (failed) k->err = -1;
    return failed;
}

static int sink_flush(Sink *k) {
    struct iovec *v = k->iov;
    int cnt = k->n_iov;
    while (cnt > 0) {
        ssize_t w = writev(k->fd, v, cnt);
        if (w < 0) {
            if (errno == EINTR) {
                if (signals_pending(k)) return -1;
                continue;
            }
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                struct pollfd pf = {k->fd, POLLOUT, 0};
                if (poll(&pf, 1, -1) < 0 && errno == EINTR && signals_pending(k)) return -1;
                continue;
            }
            k->err = errno;
            return -1;
        }
        k->written += w;
        while (cnt > 0 && (size_t)w >= v->iov_len) {
            w -= (ssize_t)v->iov_len;
            v++;
            cnt--;
        }
        if (cnt > 0) {
            v->iov_base = (char *)v->iov_base + w;
            v->iov_len -= (size_t)w;
        }
    }
    k->n_iov = 0;
    k->stage_len = 0;
    return 0;
}

/* The C library's memcpy, called (not inlined: the compiler's inline copy of
 * an unknown size is a slow string instruction for the short pieces here). */
static void *(*volatile copy_bytes)(void *, const void *, size_t) = memcpy;

/* SINK_COPY: one more piece (off < 0: data is a slice of the input, which
 * outlives the sink; else data is at off in the arena). */
static int copy_piece(Sink *k, const char *data, Py_ssize_t len, Py_ssize_t off) {
    k->len += len;
    if (k->n_pc > 0) {
        Py_ssize_t last = k->n_pc - 1;
        if (off < 0 && k->pc[last].off < 0 && k->pc[last].p + k->pc[last].len == data) {
            k->pc[last].len += len;
            return 0;
        }
        if (off >= 0 && k->pc[last].off >= 0 && k->pc[last].off + k->pc[last].len == off) {
            k->pc[last].len += len;
            return 0;
        }
    }
    if (k->n_pc == k->cap_pc) {
        Py_ssize_t cap = k->cap_pc ? k->cap_pc * 2 : 64;
        void *pc = PyMem_RawRealloc(k->pc, sizeof(*k->pc) * (size_t)cap);
        if (pc == NULL) {
            k->err = ENOMEM;
            return -1;
        }
        k->pc = pc;
        k->cap_pc = cap;
    }
    k->pc[k->n_pc].p = off < 0 ? data : NULL;
    k->pc[k->n_pc].len = len;
    k->pc[k->n_pc].off = off;
    k->n_pc++;
    return 0;
}

static int sink_put(Sink *k, const void *data, Py_ssize_t len) {
    if (len <= 0) return 0;
    if (k->mode == SINK_NONE) {
        k->written += len;
        return 0;
    }
    if (k->mode == SINK_COPY) return copy_piece(k, data, len, -1);
    const char *src = data;
    if (len < SINK_SMALL) {
        if ((k->stage_len + len > SINK_STAGE || k->n_iov == SINK_IOV) && sink_flush(k) < 0) return -1;
        char *dst = k->stage + k->stage_len;
        copy_bytes(dst, src, (size_t)len);
        k->stage_len += len;
        src = dst;
    }
    if (k->n_iov > 0) {
        struct iovec *last = &k->iov[k->n_iov - 1];
        if ((const char *)last->iov_base + last->iov_len == src) {
            last->iov_len += (size_t)len;
            return 0;
        }
    }
    if (k->n_iov == SINK_IOV) {
        /* Only a large piece gets here (a small one flushed above). */
        if (sink_flush(k) < 0) return -1;
    }
    k->iov[k->n_iov].iov_base = (void *)src;
    k->iov[k->n_iov].iov_len = (size_t)len;
    k->n_iov++;
    return 0;
}

/* "--- redacted ... at line N ---\n" into ph (80 bytes); returns its length. */
static int placeholder(char *ph, int verdict, long long nr) {
    static const char pem[] = "--- redacted PEM key block at line ";
    static const char cred[] = "--- redacted credential at line ";
    int len;
    char digits[24];
    int d = 0;
    unsigned long long v = nr < 0 ? 0 : (unsigned long long)nr;
    do {
        digits[d++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    /* Constant sizes: copies the compiler turns into a few moves. */
    if (verdict == PEM) {
        memcpy(ph, pem, sizeof pem - 1);
        len = (int)sizeof pem - 1;
    } else {
        memcpy(ph, cred, sizeof cred - 1);
        len = (int)sizeof cred - 1;
    }
    while (d) ph[len++] = digits[--d];
    memcpy(ph + len, " ---\n", 5);
    return len + 5;
}

/* A placeholder (text that does not outlive the call): copied where kept. */
static int sink_text(Sink *k, const char *text, Py_ssize_t len) {
    if (k->mode != SINK_COPY) return sink_put(k, text, len);
    if (k->arena_len + len > k->arena_cap) {
        Py_ssize_t cap = k->arena_cap ? k->arena_cap * 2 : 4096;
        while (cap < k->arena_len + len) cap *= 2;
        char *a = PyMem_RawRealloc(k->arena, (size_t)cap);
        if (a == NULL) {
            k->err = ENOMEM;
            return -1;
        }
        k->arena = a;
        k->arena_cap = cap;
    }
    memcpy(k->arena + k->arena_len, text, (size_t)len);
    k->arena_len += len;
    return copy_piece(k, NULL, len, k->arena_len - len);
}

/* SINK_COPY: the output as bytes; the input object itself when the output is
 * all of it (nothing redacted), so a clean buffer is not copied at all. */
static PyObject *copy_result(const Sink *k, PyObject *src, const Py_buffer *view) {
    if (k->n_pc == 1 && k->pc[0].off < 0 && k->pc[0].p == view->buf && k->pc[0].len == view->len &&
        PyBytes_CheckExact(src)) {
        Py_INCREF(src);
        return src;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, k->len);
    if (out == NULL) return NULL;
    char *dst = PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < k->n_pc; i++) {
        const char *from = k->pc[i].off < 0 ? k->pc[i].p : k->arena + k->pc[i].off;
        memcpy(dst, from, (size_t)k->pc[i].len);
        dst += k->pc[i].len;
    }
    return out;
}

/* ----- the loop over a buffer -------------------------------------------- */
typedef struct { long long nr; Py_ssize_t verdict, start, end; } Replaced;
typedef struct { Replaced *v; Py_ssize_t n, cap; int on; } Record;

static int record_add(Record *r, long long nr, int verdict, Py_ssize_t a, Py_ssize_t b) {
    if (r->n == r->cap) {
        Py_ssize_t cap = r->cap ? r->cap * 2 : 64;
        Replaced *v = PyMem_RawRealloc(r->v, sizeof(Replaced) * (size_t)cap);
        if (v == NULL) return -1;
        r->v = v;
        r->cap = cap;
    }
    r->v[r->n].nr = nr;
    r->v[r->n].verdict = verdict;
    r->v[r->n].start = a;
    r->v[r->n].end = b;
    r->n++;
    return 0;
}

/* Redact the whole lines s[0:end) (s[end - 1] is a newline) into k.
 * hv: sorted positions of the prefilter's hits, or NULL to find the
 * triggers here (the native prefilter).  While no block or window is open
 * only the lines holding a trigger are looked at; the runs between them go
 * out as they are.  Returns 0, or -1 with k->err set. */
static int process(State *st, const unsigned char *s, Py_ssize_t end, const Py_ssize_t *hv,
                   Py_ssize_t n_hits, Sink *k, Record *rec) {
    /* The lines that pass are not put one by one: [keep, pos) is the run of
     * them not yet put, which goes out as one piece before a placeholder. */
    Py_ssize_t pos = 0, hi = 0, keep = 0;
    int known = 0; /* the next line holds a credential the scan confirmed */
    char ph[80];
    while (pos < end) {
        if (!st->in_pem && !st->watch) {
            Py_ssize_t at;
            if (hv != NULL) {
                while (hi < n_hits && hv[hi] < pos) hi++;
                at = hi < n_hits && hv[hi] < end ? hv[hi] : end;
            } else {
                int kind = 0;
                at = find_trigger(s, pos, end, 1, &kind);
                known = kind == TRIGGER_CREDENTIAL;
            }
            if (at >= end) {
                st->nr += count_nl(s + pos, end - pos);
                pos = end;
                break;
            }
            Py_ssize_t start = at;
            while (start > pos && s[start - 1] != '\n') start--;
            st->nr += count_nl(s + pos, start - pos);
            pos = start;
        }
        const unsigned char *nlp = memchr(s + pos, '\n', (size_t)(end - pos));
        Py_ssize_t nl = nlp ? nlp - s : end;
        int verdict = step(st, s + pos, nl - pos, known);
        known = 0;
        if (verdict != KEEP) {
            int n = placeholder(ph, verdict, st->nr);
            if (sink_put(k, s + keep, pos - keep) < 0 || sink_text(k, ph, n) < 0) return -1;
            keep = nl + 1;
            if (rec->on && record_add(rec, st->nr, verdict, pos, nl) < 0) {
                k->err = ENOMEM;
                return -1;
            }
        }
        pos = nl + 1;
    }
    return sink_put(k, s + keep, end - keep);
}

/* ----- Python glue -------------------------------------------------------- */
static int read_state(PyObject *list, State *st) {
    long long v[9];
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != 9) {
        PyErr_SetString(PyExc_TypeError, "state must be a list of nine ints");
        return -1;
    }
    for (int i = 0; i < 9; i++) {
        v[i] = PyLong_AsLongLong(PyList_GET_ITEM(list, i));
        if (v[i] == -1 && PyErr_Occurred()) return -1;
    }
    st->nr = v[0];
    st->in_pem = (long)v[1]; st->real = (long)v[2]; st->prev_real = (long)v[3];
    st->stray = (long)v[4]; st->span = (long)v[5]; st->key_len = (long)v[6];
    st->chain = (long)v[7]; st->watch = (long)v[8];
    return 0;
}

static int write_state(PyObject *list, const State *st) {
    long long v[9] = {st->nr, st->in_pem, st->real, st->prev_real, st->stray, st->span,
                      st->key_len, st->chain, st->watch};
    for (int i = 0; i < 9; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (x == NULL) return -1;
        if (PyList_SetItem(list, i, x) < 0) return -1;
    }
    return 0;
}

/* write_state with an exception already set (a signal handler's) kept
 * aside meanwhile and put back; returns -1 (with its own error) on failure. */
static int put_state_back(PyObject *list, const State *st) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (write_state(list, st) < 0) {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        return -1;
    }
    PyErr_Restore(type, value, tb);
    return 0;
}

static Sink *sink_new(int mode, int fd) {
    Sink *k = PyMem_RawMalloc(sizeof(Sink));
    if (k == NULL) return NULL;
    k->mode = mode;
    k->fd = fd;
    k->err = 0;
    k->save = NULL;
    k->pc = NULL;
    k->n_pc = k->cap_pc = 0;
    k->arena = NULL;
    k->arena_len = k->arena_cap = 0;
    k->len = k->written = 0;
    k->n_iov = 0;
    k->stage_len = 0;
    return k;
}

/* Sets the Python error for a failed sink (the GIL held). */
static void sink_error(const Sink *k) {
    if (PyErr_Occurred()) return; /* a signal handler raised */
    if (k->err == ENOMEM || k->err == 0) {
        PyErr_NoMemory();
        return;
    }
    errno = k->err;
    PyErr_SetFromErrno(PyExc_OSError);
}

static int append_record(PyObject *record, const Record *rec) {
    for (Py_ssize_t i = 0; i < rec->n; i++) {
        PyObject *item = Py_BuildValue("(Lnnn)", rec->v[i].nr, rec->v[i].verdict,
                                       rec->v[i].start, rec->v[i].end);
        if (item == NULL || PyList_Append(record, item) < 0) {
            Py_XDECREF(item);
            return -1;
        }
        Py_DECREF(item);
    }
    return 0;
}

/* run_all(buf, end, hits, state[, record[, fd]]) -> bytes or int
 *   The whole of buf[0:end] (whole lines).  hits: sorted positions, each
 *   inside a line the prefilter reports, or None to use the native
 *   prefilter.  record (a list, or None): for every replaced line, four ints
 *   are appended: its number, 1 (credential) or 2 (PEM), and where the line
 *   starts and ends.  fd: None returns the output as bytes; a descriptor
 *   gets it written (the int returned is the bytes written; an OSError
 *   carries the errno of a failed write); -1 writes nothing and returns the
 *   size the output would have. */
static PyObject *run_all(PyObject *self, PyObject *args) {
    Py_buffer view;
    Py_ssize_t end;
    PyObject *src, *hits, *state, *record = Py_None, *fdobj = Py_None;
    (void)self;
    if (!PyArg_ParseTuple(args, "OnOO|OO", &src, &end, &hits, &state, &record, &fdobj))
        return NULL;
    if (PyObject_GetBuffer(src, &view, PyBUF_SIMPLE) < 0) return NULL;
    State st;
    int fd = -2;
    if (fdobj != Py_None) {
        long v = PyLong_AsLong(fdobj);
        fd = v < 0 ? -1 : (int)v;
        if ((v == -1 && PyErr_Occurred()) || v > INT_MAX) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad descriptor");
            PyBuffer_Release(&view);
            return NULL;
        }
    }
    if ((record != Py_None && !PyList_Check(record)) || (hits != Py_None && !PyList_Check(hits)) ||
        read_state(state, &st) < 0 || end < 0 || end > view.len ||
        (end > 0 && ((const char *)view.buf)[end - 1] != '\n')) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "bad arguments");
        PyBuffer_Release(&view);
        return NULL;
    }
    /* Everything the loop needs, copied out of Python objects first: the loop
     * then runs without the GIL, so a thread can scan the next buffer. */
    Py_ssize_t n_hits = hits == Py_None ? 0 : PyList_GET_SIZE(hits);
    Py_ssize_t *hv = NULL;
    if (hits != Py_None) {
        hv = PyMem_RawMalloc(sizeof(Py_ssize_t) * (size_t)(n_hits ? n_hits : 1));
        if (hv == NULL) {
            PyBuffer_Release(&view);
            return PyErr_NoMemory();
        }
        for (Py_ssize_t i = 0; i < n_hits; i++) {
            hv[i] = PyLong_AsSsize_t(PyList_GET_ITEM(hits, i));
            if (hv[i] == -1 && PyErr_Occurred()) {
                PyMem_RawFree(hv);
                PyBuffer_Release(&view);
                return NULL;
            }
        }
    }
    Sink *k = sink_new(fd == -2 ? SINK_COPY : fd == -1 ? SINK_NONE : SINK_FD, fd);
    if (k == NULL) {
        PyMem_RawFree(hv);
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    Record rec = {NULL, 0, 0, record != Py_None};
    int failed;
    PyThreadState *save = PyEval_SaveThread();
    k->save = &save;
    failed = process(&st, view.buf, end, hv, n_hits, k, &rec) < 0 ||
             (k->mode == SINK_FD && sink_flush(k) < 0);
    PyEval_RestoreThread(save);
    PyMem_RawFree(hv);
    /* The state goes back even after a failed write (the lines before it
     * were decided, and a caller that goes on must not see them again), with
     * a signal handler's exception kept aside meanwhile. */
    int state_failed = put_state_back(state, &st);
    PyObject *result = NULL;
    if (failed || state_failed) {
        if (!state_failed) sink_error(k);
    } else if (k->mode == SINK_COPY) {
        result = copy_result(k, src, &view);  /* while the input's buffer is held */
    } else {
        result = PyLong_FromSsize_t(k->written);
    }
    PyBuffer_Release(&view);
    PyMem_RawFree(k->pc);
    PyMem_RawFree(k->arena);
    PyMem_RawFree(k);
    if (result != NULL && record != Py_None && append_record(record, &rec) < 0) Py_CLEAR(result);
    PyMem_RawFree(rec.v);
    return result;
}

/* The (buf, start, end) arguments of scan and count_lines: 0, or -1 with an
 * exception set (the buffer is then released). */
static int buffer_range(PyObject *args, Py_buffer *view, Py_ssize_t *start, Py_ssize_t *end) {
    if (!PyArg_ParseTuple(args, "y*nn", view, start, end)) return -1;
    if (*start < 0 || *end > view->len || *start > *end) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "bad range");
        return -1;
    }
    return 0;
}

/* scan(buf, start, end) -> list: the native prefilter on its own.  Sorted
 * positions, one per line of buf[start:end] that holds a built-in trigger. */
static PyObject *scan(PyObject *self, PyObject *args) {
    Py_buffer view;
    Py_ssize_t start, end;
    (void)self;
    if (buffer_range(args, &view, &start, &end) < 0) return NULL;
    PyObject *out = PyList_New(0);
    const unsigned char *s = view.buf;
    Py_ssize_t pos = start;
    while (out != NULL && pos < end) {
        int kind;
        Py_ssize_t at = find_trigger(s, pos, end, 1, &kind);
        if (at >= end) break;
        PyObject *x = PyLong_FromSsize_t(at);
        if (x == NULL || PyList_Append(out, x) < 0) Py_CLEAR(out);
        Py_XDECREF(x);
        const unsigned char *nlp = memchr(s + at, '\n', (size_t)(end - at));
        pos = nlp ? nlp - s + 1 : end;
    }
    PyBuffer_Release(&view);
    return out;
}

/* count_lines(buf, start, end) -> int: the newlines in buf[start:end] (the
 * rules' line machine counts the lines it passes with it, at memory speed). */
static PyObject *count_lines(PyObject *self, PyObject *args) {
    Py_buffer view;
    Py_ssize_t start, end;
    (void)self;
    if (buffer_range(args, &view, &start, &end) < 0) return NULL;
    Py_ssize_t k = count_nl((const unsigned char *)view.buf + start, end - start);
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(k);
}

/* line_slices(buf, cands) -> list: for each (start, ...) of cands, the line
 * that starts there, buf[start:buf.index(b"\n", start)] (ValueError when no
 * newline ends it).  Lines of the same bytes are one object: text dense in
 * near misses repeats its candidate lines, and the sets and dicts the rules
 * key by lines then hash each once and compare by identity.  The table of
 * the lines seen has two slots per candidate, so memory stays linear. */
typedef struct {
    Py_ssize_t start, len;
    unsigned long long hash;
    PyObject *line; /* borrowed: the list holds it */
} Seen;

static PyObject *line_slices(PyObject *self, PyObject *args) {
    Py_buffer view;
    PyObject *cands;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*O", &view, &cands)) return NULL;
    PyObject *seq = PySequence_Fast(cands, "cands must be a sequence of (start, ...) pairs");
    if (seq == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    size_t cap = 16;
    while (cap < (size_t)n * 2) cap <<= 1;
    Seen *table = PyMem_Calloc(cap, sizeof(Seen));
    PyObject *out = table ? PyList_New(n) : NULL;
    if (table == NULL) PyErr_NoMemory();
    const unsigned char *s = view.buf;
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        PyObject *first = PyTuple_Check(item) && PyTuple_GET_SIZE(item) > 0
                              ? PyTuple_GET_ITEM(item, 0) : NULL;
        Py_ssize_t start = first ? PyLong_AsSsize_t(first) : -1;
        if (start < 0 || start > view.len) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a candidate outside the buffer");
            Py_CLEAR(out);
            break;
        }
        const unsigned char *nlp = memchr(s + start, '\n', (size_t)(view.len - start));
        if (nlp == NULL) {
            PyErr_SetString(PyExc_ValueError, "a candidate line without its newline");
            Py_CLEAR(out);
            break;
        }
        Py_ssize_t len = nlp - (s + start);
        unsigned long long h = 1469598103934665603ULL; /* FNV-1a */
        for (Py_ssize_t k = 0; k < len; k++) h = (h ^ s[start + k]) * 1099511628211ULL;
        size_t at = (size_t)(h ^ (h >> 29)) & (cap - 1);
        PyObject *line = NULL;
        while (table[at].line != NULL) {
            Seen *e = &table[at];
            if (e->hash == h && e->len == len && memcmp(s + e->start, s + start, (size_t)len) == 0) {
                line = e->line;
                Py_INCREF(line);
                break;
            }
            at = (at + 1) & (cap - 1);
        }
        if (line == NULL) {
            line = PyBytes_FromStringAndSize((const char *)s + start, len);
            if (line == NULL) {
                Py_CLEAR(out);
                break;
            }
            table[at].start = start;
            table[at].len = len;
            table[at].hash = h;
            table[at].line = line;
        }
        PyList_SET_ITEM(out, i, line);
    }
    PyMem_Free(table);
    Py_DECREF(seq);
    PyBuffer_Release(&view);
    return out;
}

/* ----- a whole input, from descriptor to descriptor ---------------------- */
/* Reads in_fd to its end and writes the redaction to out_fd, the state
 * carrying on (several inputs are one stream).  A read is topped up while
 * more is immediately available, up to `chunk` bytes, so bulk input is
 * handled in large buffers and a live pipe is not waited on; a line longer
 * than the buffer grows it.  A final line without a newline gets one. */
static int read_some(Sink *k, int fd, char *buf, Py_ssize_t want, Py_ssize_t *got) {
    for (;;) {
        ssize_t r = read(fd, buf, (size_t)want);
        if (r >= 0) {
            *got = r;
            return 0;
        }
        if (errno == EINTR) {
            if (signals_pending(k)) return -1;
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            struct pollfd pf = {fd, POLLIN, 0};
            if (poll(&pf, 1, -1) < 0 && errno == EINTR && signals_pending(k)) return -1;
            continue;
        }
        k->err = errno;
        return -1;
    }
}

static int more_ready(int fd) {
    struct pollfd pf = {fd, POLLIN, 0};
    return poll(&pf, 1, 0) > 0 && (pf.revents & (POLLIN | POLLHUP));
}

static int run_fd_loop(State *st, int in_fd, Sink *k, Py_ssize_t chunk, Py_ssize_t *n_in) {
    Py_ssize_t cap = chunk + 1, have = 0;
    char *buf = PyMem_RawMalloc((size_t)cap);
    Record rec = {NULL, 0, 0, 0};
    int eof = 0;
    if (buf == NULL) {
        k->err = ENOMEM;
        return -1;
    }
    while (!eof) {
        /* Fill: one read, then more while it is there at once, until a whole
         * line is held.  The bytes carried over hold no newline. */
        Py_ssize_t fresh = 0;
        int has_nl = 0;
        for (;;) {
            Py_ssize_t got;
            if (have + 1 >= cap) {
                /* A line longer than the buffer: grow it. */
                char *p = PyMem_RawRealloc(buf, (size_t)(cap * 2));
                if (p == NULL) {
                    k->err = ENOMEM;
                    goto fail;
                }
                buf = p;
                cap *= 2;
            }
            if (read_some(k, in_fd, buf + have, cap - 1 - have, &got) < 0) goto fail;
            if (got == 0) {
                eof = 1;
                break;
            }
            if (!has_nl) has_nl = memchr(buf + have, '\n', (size_t)got) != NULL;
            have += got;
            fresh += got;
            *n_in += got;
            if (has_nl && (fresh >= chunk || !more_ready(in_fd))) break;
        }
        Py_ssize_t end = have;
        if (eof) {
            if (have > 0 && buf[have - 1] != '\n') buf[have++] = '\n';
            end = have;
        } else {
            while (end > 0 && buf[end - 1] != '\n') end--;
        }
        if (end > 0) {
            if (process(st, (const unsigned char *)buf, end, NULL, 0, k, &rec) < 0) goto fail;
            if (k->mode == SINK_FD && sink_flush(k) < 0) goto fail;
            memmove(buf, buf + end, (size_t)(have - end));
            have -= end;
        }
    }
    PyMem_RawFree(buf);
    return 0;
fail:
    if (k->mode == SINK_FD) k->n_iov = 0;
    PyMem_RawFree(buf);
    return -1;
}

/* redact_fd(in_fd, out_fd, state[, chunk]) -> (bytes read, bytes written) */
static PyObject *redact_fd(PyObject *self, PyObject *args) {
    int in_fd, out_fd;
    PyObject *state;
    Py_ssize_t chunk = 512 << 10, n_in = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiO|n", &in_fd, &out_fd, &state, &chunk)) return NULL;
    State st;
    if (read_state(state, &st) < 0) return NULL;
    if (chunk < 1) chunk = 1;
    Sink *k = sink_new(out_fd < 0 ? SINK_NONE : SINK_FD, out_fd);
    if (k == NULL) return PyErr_NoMemory();
    PyThreadState *save = PyEval_SaveThread();
    k->save = &save;
    int failed = run_fd_loop(&st, in_fd, k, chunk, &n_in) < 0;
    PyEval_RestoreThread(save);
    Py_ssize_t written = k->written;
    int state_failed = put_state_back(state, &st);
    if (failed && !state_failed) sink_error(k);
    PyMem_RawFree(k);
    if (failed || state_failed) return NULL;
    return Py_BuildValue("(nn)", n_in, written);
}

/* vector_width([width]) -> int: the scan's vector width in bytes (0: scalar);
 * with an argument, use that width from now on when the processor has it
 * (the tests hold every width to the same answers). */
static PyObject *vector_width(PyObject *self, PyObject *args) {
    int want = -1;
    (void)self;
    if (!PyArg_ParseTuple(args, "|i", &want)) return NULL;
    if (want >= 0) return PyLong_FromLong(set_width(want));
#if defined(HAVE_AVX2_PATH)
    if (find_trigger_impl == find_trigger_avx2) return PyLong_FromLong(32);
#endif
#if defined(__SSE2__)
    if (find_trigger_impl == find_trigger_sse2) return PyLong_FromLong(16);
#endif
    return PyLong_FromLong(0);
}

/* ----- match lists of a multi-pattern scan, to lines and masks ---------- */
/* Matches(base, n_builtin): a callable a multi-pattern scan (Hyperscan) calls
 * once per match, as (id, from, to, flags, context).  It keeps the match's
 * last byte (base + to) and its bit: BUILTIN (1) for an id below n_builtin,
 * else 1 << (id - n_builtin + 1); ids past bit 63 set `overflow`, and the
 * caller then groups the matches itself.  lines(buf, start, end[, builtin])
 * then maps the matches (and the built-in positions given, bit 1) to the
 * lines of buf[start:end] that hold them: a sorted list of
 * (line start, mask), one entry per line, as Prefilter.candidates gives. */
typedef struct {
    unsigned long long at, bit;
} Hit;

typedef struct {
    PyObject_HEAD
    Hit *v;
    Py_ssize_t n, cap;
    long long base;
    unsigned long n_builtin;
    int overflow;
} Matches;

static int hits_push(Matches *h, unsigned long long at, unsigned long long bit) {
    if (h->n == h->cap) {
        Py_ssize_t cap = h->cap ? h->cap * 2 : 1024;
        Hit *v = PyMem_Realloc(h->v, (size_t)cap * sizeof(Hit));
        if (v == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        h->v = v;
        h->cap = cap;
    }
    h->v[h->n].at = at;
    h->v[h->n].bit = bit;
    h->n++;
    return 0;
}

static PyObject *matches_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    long long base;
    unsigned long n_builtin;
    (void)kwds;
    if (!PyArg_ParseTuple(args, "Lk", &base, &n_builtin)) return NULL;
    Matches *h = (Matches *)type->tp_alloc(type, 0);
    if (h == NULL) return NULL;
    h->v = NULL;
    h->n = h->cap = 0;
    h->base = base;
    h->n_builtin = n_builtin;
    h->overflow = 0;
    return (PyObject *)h;
}

static void matches_dealloc(Matches *h) {
    PyMem_Free(h->v);
    Py_TYPE(h)->tp_free((PyObject *)h);
}

static PyObject *matches_call(Matches *h, PyObject *args, PyObject *kwds) {
    (void)kwds;
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) < 3) {
        PyErr_SetString(PyExc_TypeError, "Matches takes (id, from, to, ...)");
        return NULL;
    }
    unsigned long id = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(args, 0));
    unsigned long long to = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(args, 2));
    if (PyErr_Occurred()) return NULL;
    unsigned long long bit = 1;
    if (id >= h->n_builtin) {
        unsigned long k = id - h->n_builtin + 1;
        if (k > 63) {
            h->overflow = 1;
            Py_RETURN_NONE;
        }
        bit = 1ULL << k;
    }
    if (hits_push(h, (unsigned long long)(h->base + (long long)to), bit) < 0) return NULL;
    Py_RETURN_NONE;
}

static int hit_cmp(const void *a, const void *b) {
    unsigned long long x = ((const Hit *)a)->at, y = ((const Hit *)b)->at;
    return x < y ? -1 : x > y;
}

static int line_append(PyObject *out, Py_ssize_t line_start, unsigned long long mask) {
    PyObject *t = PyTuple_New(2);
    if (t == NULL) return -1;
    PyObject *a = PyLong_FromSsize_t(line_start), *b = PyLong_FromUnsignedLongLong(mask);
    if (a == NULL || b == NULL) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_DECREF(t);
        return -1;
    }
    PyTuple_SET_ITEM(t, 0, a);
    PyTuple_SET_ITEM(t, 1, b);
    int rc = PyList_Append(out, t);
    Py_DECREF(t);
    return rc;
}

static PyObject *matches_lines(Matches *h, PyObject *args) {
    Py_buffer view;
    Py_ssize_t start, end;
    PyObject *builtin = Py_None;
    if (!PyArg_ParseTuple(args, "y*nn|O", &view, &start, &end, &builtin)) return NULL;
    PyObject *out = NULL;
    if (start < 0 || end > view.len || start > end) {
        PyErr_SetString(PyExc_ValueError, "bad range");
        goto done;
    }
    if (h->overflow) {
        PyErr_SetString(PyExc_OverflowError, "more patterns than a mask of 64 bits holds");
        goto done;
    }
    if (builtin != Py_None) {
        PyObject *seq = PySequence_Fast(builtin, "builtin must be a sequence of positions");
        if (seq == NULL) goto done;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
        for (Py_ssize_t i = 0; i < k; i++) {
            Py_ssize_t at = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(seq, i));
            if ((at == -1 && PyErr_Occurred()) || hits_push(h, (unsigned long long)at, 1) < 0) {
                Py_DECREF(seq);
                goto done;
            }
        }
        Py_DECREF(seq);
    }
    int sorted = 1;
    for (Py_ssize_t i = 1; i < h->n && sorted; i++) sorted = h->v[i - 1].at <= h->v[i].at;
    if (!sorted) qsort(h->v, (size_t)h->n, sizeof(Hit), hit_cmp);
    out = PyList_New(0);
    const unsigned char *s = view.buf;
    Py_ssize_t line_start = -1, line_end = -1;
    unsigned long long mask = 0;
    for (Py_ssize_t i = 0; out != NULL && i < h->n; i++) {
        Py_ssize_t at = (Py_ssize_t)h->v[i].at;
        if (at < start || at >= end) {
            PyErr_SetString(PyExc_ValueError, "a match outside the range");
            Py_CLEAR(out);
            break;
        }
        if (at > line_end) {
            if (mask && line_append(out, line_start, mask) < 0) {
                Py_CLEAR(out);
                break;
            }
            line_start = start;
            for (Py_ssize_t j = at; j > start; j--) {
                if (s[j - 1] == '\n') {
                    line_start = j;
                    break;
                }
            }
            const unsigned char *nlp = memchr(s + at, '\n', (size_t)(end - at));
            line_end = nlp ? nlp - s : end;
            mask = 0;
        }
        mask |= h->v[i].bit;
    }
    if (out != NULL && mask && line_append(out, line_start, mask) < 0) Py_CLEAR(out);
done:
    PyBuffer_Release(&view);
    return out;
}

static PyObject *matches_count(Matches *h, PyObject *noargs) {
    (void)noargs;
    return PyLong_FromSsize_t(h->n);
}

static PyMethodDef matches_methods[] = {
    {"lines", (PyCFunction)matches_lines, METH_VARARGS,
     "lines(buf, start, end[, builtin]) -> [(line start, mask), ...], sorted."},
    {"count", (PyCFunction)matches_count, METH_NOARGS, "How many matches were kept."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject MatchesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "council_filters.redaction._machine.Matches",
    .tp_basicsize = sizeof(Matches),
    .tp_dealloc = (destructor)matches_dealloc,
    .tp_call = (ternaryfunc)matches_call,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The matches of a multi-pattern scan, kept in C and mapped to lines.",
    .tp_methods = matches_methods,
    .tp_new = matches_new,
};

/* ----- the distinct lines of a buffer ----------------------------------- */
/* Distinct(buf, start, end, sample, most): the lines of buf[start:end] (whole
 * lines, buf[end - 1] a newline) with each distinct line kept once.  A scan
 * whose patterns cannot match a newline finds on a line what it finds on the
 * same bytes anywhere else, so it may read `text` (each distinct line once,
 * in order of first appearance, each with its newline) and `expand` hands
 * its candidates back to every line of the buffer that holds those bytes.
 * Text dense in near misses repeats its lines, and the multi-pattern scan
 * costs per key word, not per byte.  Worth it only when lines repeat: after
 * the first `sample` bytes, if the distinct lines hold more than `most`
 * thousandths of them, it stops and `text` is None (the caller scans the
 * buffer itself).  Memory: a few words per line of the buffer. */
typedef struct {
    PyObject_HEAD
    PyObject *text;           /* bytes, or None */
    Py_ssize_t n_lines, n_distinct;
    Py_ssize_t *line_start;   /* per line of the buffer: its start */
    Py_ssize_t *line_idx;     /* per line: the index of its distinct line */
    Py_ssize_t *text_start;   /* per distinct line: its start in text */
} Distinct;

static void distinct_free_arrays(Distinct *d) {
    PyMem_Free(d->line_start);
    PyMem_Free(d->line_idx);
    PyMem_Free(d->text_start);
    d->line_start = d->line_idx = d->text_start = NULL;
}

static unsigned long long line_hash(const unsigned char *p, Py_ssize_t n) {
    unsigned long long h = 0x9e3779b97f4a7c15ULL ^ (unsigned long long)n;
    Py_ssize_t i = 0;
    for (; i + 8 <= n; i += 8) {
        unsigned long long w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    unsigned long long w = 0;
    memcpy(&w, p + i, (size_t)(n - i));
    h ^= w; /* then every bit of it moves every bit of the hash (MurmurHash3's finish) */
    h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;
    h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

static int grow(void **v, Py_ssize_t *cap, Py_ssize_t need, size_t size) {
    if (need <= *cap) return 0;
    Py_ssize_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    void *p = PyMem_Realloc(*v, (size_t)c * size);
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *v = p;
    *cap = c;
    return 0;
}

/* A slot of the table of distinct lines: the index + 1 of a distinct line
 * (0: empty) in the low 32 bits, the high half of its hash above (most
 * lines that are no repeat are told apart there, without a look at them).
 * Eight bytes a slot keep the table small; its slots are fetched a batch of
 * lines ahead, as a slot is a cache miss on text of many distinct lines. */
#define DISTINCT_BATCH 16
/* A line whose slot is not found within this many steps ends the search for
 * repeats (the caller scans the buffer): the time stays linear whatever the
 * lines, even made to share a hash. */
#define DISTINCT_PROBES 64

static int distinct_table_grow(unsigned long long **table, size_t *tcap,
                               const unsigned long long *d_hash) {
    size_t c = *tcap ? *tcap * 2 : 4096;
    unsigned long long *t = PyMem_Calloc(c, sizeof(unsigned long long));
    if (t == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t k = 0; k < *tcap; k++) {
        unsigned long long e = (*table)[k];
        if (!(e & 0xffffffffULL)) continue;
        size_t at = (size_t)d_hash[(e & 0xffffffffULL) - 1] & (c - 1);
        while (t[at]) at = (at + 1) & (c - 1);
        t[at] = e;
    }
    PyMem_Free(*table);
    *table = t;
    *tcap = c;
    return 0;
}

static PyObject *distinct_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    Py_buffer view;
    Py_ssize_t start, end, sample, most;
    (void)kwds;
    if (!PyArg_ParseTuple(args, "y*nnnn", &view, &start, &end, &sample, &most)) return NULL;
    if (start < 0 || end > view.len || start > end) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "bad range");
        return NULL;
    }
    if (end - start > 0xffffffffLL) { /* (indices of 32 bits) */
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "a range of 4 GiB or more");
        return NULL;
    }
    Distinct *d = (Distinct *)type->tp_alloc(type, 0);
    if (d == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    Py_INCREF(Py_None);
    d->text = Py_None;
    const unsigned char *s = view.buf;
    /* per distinct line: where it is, its length and hash */
    Py_ssize_t *d_at = NULL, *d_len = NULL, cap_at = 0, cap_len = 0, cap_hash = 0, cap_lines = 0;
    unsigned long long *d_hash = NULL, *table = NULL;
    size_t tcap = 0;
    Py_ssize_t nd = 0, nl = 0, kept = 0; /* distinct lines, lines, distinct bytes */
    int ok = 1, checked = sample <= 0;
    Py_ssize_t pos = start;
    if (end > start && s[end - 1] != '\n') ok = 0; /* (whole lines only) */
    if (ok && distinct_table_grow(&table, &tcap, d_hash) < 0) goto fail;
    while (ok && pos < end) {
        Py_ssize_t b_at[DISTINCT_BATCH], b_len[DISTINCT_BATCH];
        unsigned long long b_hash[DISTINCT_BATCH];
        int nb = 0;
        for (Py_ssize_t p = pos; nb < DISTINCT_BATCH && p < end; nb++) {
            const unsigned char *nlp = memchr(s + p, '\n', (size_t)(end - p));
            b_at[nb] = p;
            b_len[nb] = nlp - (s + p);
            b_hash[nb] = line_hash(s + p, b_len[nb]);
            __builtin_prefetch(&table[(size_t)b_hash[nb] & (tcap - 1)]);
            p += b_len[nb] + 1;
        }
        for (int i = 0; i < nb; i++) {
            Py_ssize_t len = b_len[i];
            pos = b_at[i];
            if (!checked && pos - start >= sample) {
                checked = 1;
                if (kept * 1000 > most * (pos - start)) {
                    ok = 0;
                    break;
                }
            }
            if ((size_t)(nd + 1) * 2 > tcap && distinct_table_grow(&table, &tcap, d_hash) < 0)
                goto fail;
            unsigned long long h = b_hash[i], tag = h & ~0xffffffffULL;
            size_t at = (size_t)h & (tcap - 1);
            Py_ssize_t idx = -1, probes = 0;
            for (unsigned long long e; (e = table[at]) != 0; at = (at + 1) & (tcap - 1)) {
                Py_ssize_t k = (Py_ssize_t)(e & 0xffffffffULL) - 1;
                if ((e & ~0xffffffffULL) == tag && d_len[k] == len
                    && memcmp(s + d_at[k], s + pos, (size_t)len) == 0) {
                    idx = k;
                    break;
                }
                if (++probes > DISTINCT_PROBES) break; /* (lines made to collide) */
            }
            if (probes > DISTINCT_PROBES) {
                ok = 0;
                break;
            }
            if (idx < 0) {
                if (grow((void **)&d_at, &cap_at, nd + 1, sizeof(Py_ssize_t)) < 0
                    || grow((void **)&d_len, &cap_len, nd + 1, sizeof(Py_ssize_t)) < 0
                    || grow((void **)&d_hash, &cap_hash, nd + 1, sizeof(unsigned long long)) < 0)
                    goto fail;
                idx = nd++;
                d_at[idx] = pos;
                d_len[idx] = len;
                d_hash[idx] = h;
                table[at] = tag | (unsigned long long)(idx + 1);
                kept += len + 1;
            }
            if (nl == cap_lines) {
                Py_ssize_t c = cap_lines;
                if (grow((void **)&d->line_start, &c, nl + 1, sizeof(Py_ssize_t)) < 0
                    || grow((void **)&d->line_idx, &cap_lines, nl + 1, sizeof(Py_ssize_t)) < 0)
                    goto fail;
            }
            d->line_start[nl] = pos;
            d->line_idx[nl] = idx;
            nl++;
            pos += len + 1;
        }
    }
    PyMem_Free(table);
    table = NULL;
    if (ok) {
        PyObject *text = PyBytes_FromStringAndSize(NULL, kept);
        d->text_start = nd ? PyMem_Malloc((size_t)nd * sizeof(Py_ssize_t)) : NULL;
        if (text == NULL || (nd && d->text_start == NULL)) {
            Py_XDECREF(text);
            if (!PyErr_Occurred()) PyErr_NoMemory();
            goto fail;
        }
        char *o = PyBytes_AS_STRING(text);
        Py_ssize_t w = 0;
        for (Py_ssize_t k = 0; k < nd; k++) {
            d->text_start[k] = w;
            memcpy(o + w, s + d_at[k], (size_t)d_len[k] + 1); /* the line and its newline */
            w += d_len[k] + 1;
        }
        Py_SETREF(d->text, text);
        d->n_lines = nl;
        d->n_distinct = nd;
    } else {
        distinct_free_arrays(d);
    }
    PyMem_Free(d_at);
    PyMem_Free(d_len);
    PyMem_Free(d_hash);
    PyBuffer_Release(&view);
    return (PyObject *)d;
fail:
    PyMem_Free(table);
    PyMem_Free(d_at);
    PyMem_Free(d_len);
    PyMem_Free(d_hash);
    PyBuffer_Release(&view);
    Py_DECREF(d);
    return NULL;
}

static void distinct_dealloc(Distinct *d) {
    Py_XDECREF(d->text);
    distinct_free_arrays(d);
    Py_TYPE(d)->tp_free((PyObject *)d);
}

/* The index of the distinct line of each of cands ((start in text, ...),
 * sorted), in a new array of *n entries (NULL: an error is set). */
static Py_ssize_t *distinct_index(Distinct *d, PyObject *cands, Py_ssize_t *n) {
    if (d->text == Py_None) {
        PyErr_SetString(PyExc_ValueError, "no distinct text was kept");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(cands, "cands must be a sequence of (start, mask) pairs");
    if (seq == NULL) return NULL;
    *n = PySequence_Fast_GET_SIZE(seq);
    Py_ssize_t *idx = PyMem_Malloc((size_t)*n * sizeof(Py_ssize_t) + 1), k = 0;
    if (idx == NULL) PyErr_NoMemory();
    for (Py_ssize_t i = 0; idx != NULL && i < *n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        Py_ssize_t at = PyTuple_Check(item) && PyTuple_GET_SIZE(item) == 2
                            ? PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 0)) : -1;
        while (at >= 0 && k < d->n_distinct && d->text_start[k] < at) k++;
        if (at < 0 || k == d->n_distinct || d->text_start[k] != at) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a candidate not at a line's start, or out of order");
            PyMem_Free(idx);
            idx = NULL;
            break;
        }
        idx[i] = k;
    }
    Py_DECREF(seq);
    return idx;
}

/* expand(cands) -> list: cands are (start in text, mask) of distinct lines,
 * sorted (as Matches.lines gives for text); the result is (line start, mask)
 * for every line of the buffer holding one of them, sorted. */
static PyObject *distinct_expand(Distinct *d, PyObject *args) {
    PyObject *cands;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "O", &cands)) return NULL;
    Py_ssize_t *idx = distinct_index(d, cands, &n);
    if (idx == NULL) return NULL;
    PyObject **masks = PyMem_Calloc((size_t)d->n_distinct + 1, sizeof(PyObject *));
    PyObject *seq = masks ? PySequence_Fast(cands, "cands must be a sequence") : NULL;
    PyObject *out = seq ? PyList_New(0) : NULL;
    if (masks == NULL) PyErr_NoMemory();
    for (Py_ssize_t i = 0; out != NULL && i < n; i++)
        masks[idx[i]] = PyTuple_GET_ITEM(PySequence_Fast_GET_ITEM(seq, i), 1);
    for (Py_ssize_t i = 0; out != NULL && i < d->n_lines; i++) {
        PyObject *mask = masks[d->line_idx[i]];
        if (mask == NULL) continue;
        PyObject *a = PyLong_FromSsize_t(d->line_start[i]);
        PyObject *t = a ? PyTuple_Pack(2, a, mask) : NULL;
        Py_XDECREF(a);
        if (t == NULL || PyList_Append(out, t) < 0) Py_CLEAR(out);
        Py_XDECREF(t);
    }
    Py_XDECREF(seq);
    PyMem_Free(masks);
    PyMem_Free(idx);
    return out;
}

/* repeats(cands) -> list: per candidate of the text (as expand takes them),
 * how many lines of the buffer hold its bytes. */
static PyObject *distinct_repeats(Distinct *d, PyObject *args) {
    PyObject *cands;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "O", &cands)) return NULL;
    Py_ssize_t *idx = distinct_index(d, cands, &n);
    if (idx == NULL) return NULL;
    Py_ssize_t *counts = PyMem_Calloc((size_t)d->n_distinct + 1, sizeof(Py_ssize_t));
    PyObject *out = counts ? PyList_New(n) : NULL;
    if (counts == NULL) PyErr_NoMemory();
    for (Py_ssize_t i = 0; out != NULL && i < d->n_lines; i++) counts[d->line_idx[i]]++;
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        PyObject *c = PyLong_FromSsize_t(counts[idx[i]]);
        if (c == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, c);
    }
    PyMem_Free(counts);
    PyMem_Free(idx);
    return out;
}

static PyObject *distinct_text(Distinct *d, void *closure) {
    (void)closure;
    Py_INCREF(d->text);
    return d->text;
}

static PyMethodDef distinct_methods[] = {
    {"expand", (PyCFunction)distinct_expand, METH_VARARGS,
     "expand(cands) -> [(line start, mask), ...]: the text's candidates, on every line."},
    {"repeats", (PyCFunction)distinct_repeats, METH_VARARGS,
     "repeats(cands) -> [int, ...]: per candidate of the text, the buffer's lines holding it."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef distinct_getset[] = {
    {"text", (getter)distinct_text, NULL, "The distinct lines, each once (None: not kept).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject DistinctType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "council_filters.redaction._machine.Distinct",
    .tp_basicsize = sizeof(Distinct),
    .tp_dealloc = (destructor)distinct_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The distinct lines of a buffer, and candidates found on them handed back.",
    .tp_methods = distinct_methods,
    .tp_getset = distinct_getset,
    .tp_new = distinct_new,
};

/* ----- line tests over a sequence of lines -------------------------------- */
/* Whether every item of the tuple is bytes (else a TypeError is set). */
static int all_bytes(PyObject *words) {
    for (Py_ssize_t w = 0; w < PyTuple_GET_SIZE(words); w++) {
        if (!PyBytes_Check(PyTuple_GET_ITEM(words, w))) {
            PyErr_SetString(PyExc_TypeError, "words must be bytes");
            return 0;
        }
    }
    return 1;
}

/* The indices (a list) of the lines (a sequence of bytes) `test` holds for. */
typedef int (*LineTest)(const unsigned char *s, Py_ssize_t n, void *ctx);
static PyObject *lines_where(PyObject *lines, LineTest test, void *ctx) {
    PyObject *seq = PySequence_Fast(lines, "lines must be a sequence");
    if (seq == NULL) return NULL;
    PyObject *out = PyList_New(0);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        PyObject *line = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyBytes_Check(line)) {
            PyErr_SetString(PyExc_TypeError, "lines must be bytes");
            Py_CLEAR(out);
            break;
        }
        if (!test((const unsigned char *)PyBytes_AS_STRING(line), PyBytes_GET_SIZE(line), ctx))
            continue;
        PyObject *x = PyLong_FromSsize_t(i);
        if (x == NULL || PyList_Append(out, x) < 0) Py_CLEAR(out);
        Py_XDECREF(x);
    }
    Py_DECREF(seq);
    return out;
}

/* ----- base64 runs that hold a key word's base64 ------------------------ */
/* base64_words(lines, words, least, most) -> list: the indices of the lines
 * (a sequence of bytes) holding a whole run of [A-Za-z0-9+/] (no such byte
 * just before it) of `least` to `most` bytes, followed by at most two "="
 * and then no byte of [A-Za-z0-9+/=], with one of `words` (runs of that
 * alphabet) inside it, that decodes to text: the proof of the rule
 * secret-base64-assignment (see proof.py), linear in the lines' length times
 * the words' number. */
static int b64_letter(unsigned char c) { return is_alnum(c) || c == '+' || c == '/'; }

static int run_holds(const unsigned char *s, Py_ssize_t n, PyObject *words) {
    Py_ssize_t k = PyTuple_GET_SIZE(words);
    for (Py_ssize_t i = 0; i < n; i++) {
        for (Py_ssize_t w = 0; w < k; w++) {
            PyObject *word = PyTuple_GET_ITEM(words, w);
            Py_ssize_t len = PyBytes_GET_SIZE(word);
            const char *text = PyBytes_AS_STRING(word);
            if (len > 0 && len <= n - i && s[i] == (unsigned char)text[0]
                && memcmp(s + i, text, (size_t)len) == 0)
                return 1;
        }
    }
    return 0;
}

/* Whether the run decodes (as base64, its last group short) to text: every
 * byte a tab, a line end or printable ASCII, as the rule's validator asks. */
static int decodes_to_text(const unsigned char *s, Py_ssize_t n) {
    if (n % 4 == 1) return 0;
    unsigned acc = 0;
    int bits = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        unsigned v = is_upper(c) ? (unsigned)(c - 'A') : is_lower(c) ? (unsigned)(c - 'a' + 26)
                   : is_digit(c) ? (unsigned)(c - '0' + 52) : c == '+' ? 62u : 63u;
        acc = (acc << 6) | v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            unsigned char b = (unsigned char)(acc >> bits);
            acc &= (1u << bits) - 1;
            if (!(b == '\t' || b == '\n' || b == '\r' || (b >= 0x20 && b <= 0x7e))) return 0;
        }
    }
    return 1;
}

static int line_has_run(const unsigned char *s, Py_ssize_t n, PyObject *words,
                        Py_ssize_t least, Py_ssize_t most) {
    Py_ssize_t i = 0;
    while (i < n) {
        if (!b64_letter(s[i])) {
            i++;
            continue;
        }
        Py_ssize_t a = i;
        while (i < n && b64_letter(s[i])) i++;
        Py_ssize_t e = i, pad = 0;
        while (e < n && s[e] == '=') e++, pad++;
        if (i - a >= least && i - a <= most && pad <= 2 && (e == n || !b64_letter(s[e]))
            && run_holds(s + a, i - a, words) && decodes_to_text(s + a, i - a))
            return 1;
    }
    return 0;
}

typedef struct {
    PyObject *words;
    Py_ssize_t least, most;
} Base64Args;

static int base64_test(const unsigned char *s, Py_ssize_t n, void *ctx) {
    const Base64Args *a = ctx;
    return line_has_run(s, n, a->words, a->least, a->most);
}

static PyObject *base64_words(PyObject *self, PyObject *args) {
    PyObject *lines;
    Base64Args a;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!nn", &lines, &PyTuple_Type, &a.words, &a.least, &a.most))
        return NULL;
    if (!all_bytes(a.words)) return NULL;
    return lines_where(lines, base64_test, &a);
}

/* ----- values after an operator (the assignment family's proofs) --------- */
/* value_gate(lines, mode, codes, names, keys, suffixes) -> list: the
 * indices of the lines on which the first proof stage of secret-assignment
 * (mode 0; 1: of secret-table-cell, 2: of secret-scrambled-value; plus 4:
 * and its whole proof, a key before the operator) may match: an operator
 * (":", "=", "=>", "<-", a full-width colon or equals; "|" for a table
 * cell), blanks, then a value (builtin.VALUE; builtin.SCRAMBLED) that the
 * stage's conditions may accept.  A superset of the lines that stage
 * matches on: a value is set aside only when one of the conditions below
 * surely refuses it, each read as the pattern reads it; any other value
 * keeps its line.  Every look is bounded (the pattern's own windows of 300
 * bytes), so the pass is linear in the lines' length.
 *
 * A value passes when its main conditions hold or it reads as drawn
 * (proof._drawn).  Drawn needs ten bytes of its class and one of: a hex
 * digest or UUID start, a run of words and a number (whole), or a has_digit,
 * a capital, a small letter and a sign (each within the first 301 bytes).
 * The main conditions refuse a value led by $ < {, one of fewer than six bytes, one
 * holding a placeholder (a subset of proof._PLACEHOLDER; quoted: also "#{";
 * unquoted, in a run of at most 300 bytes: also a bracket, a final "." or
 * ":", or a dotted name), a code word alone (`codes`, has_lower case), a
 * Windows variable alone, and a bare run of letters holding a word of
 * `names` (has_lower case). */
#define VG_WINDOW 300
enum { VG_ASSIGN, VG_PIPE, VG_SCRAMBLED, VG_KIND = 3, VG_KEY = 4 };  /* the modes */
static int vg_run(unsigned char c) {  /* builtin.VALUE's unquoted byte */
    return !(is_ws(c) || c == '"' || c == '\'' || c == '`' || c == ',' || c == ';' || c == '|');
}
static int vg_qch(unsigned char c) { return !(c == '"' || c == '\'' || c == '`' || c == '\n'); }
static int vg_quote(unsigned char c) { return c == '"' || c == '\'' || c == '`'; }
static int vg_word(unsigned char c) { return is_alnum(c) || c == '_'; }
static unsigned char vg_low(unsigned char c) { return is_upper(c) ? (unsigned char)(c + 32) : c; }

static int vg_case_at(const unsigned char *s, Py_ssize_t n, Py_ssize_t at, const char *lit) {
    size_t k = strlen(lit);
    if (at < 0 || (Py_ssize_t)(at + k) > n) return 0;
    for (size_t i = 0; i < k; i++)
        if (vg_low(s[at + (Py_ssize_t)i]) != (unsigned char)lit[i]) return 0;
    return (int)k;
}

/* A placeholder of proof._PLACEHOLDER starting at s[at] (a subset of its
 * forms: what is found is a match of that pattern). */
static int vg_placeholder(const unsigned char *s, Py_ssize_t n, Py_ssize_t at) {
    static const char *exact[] = {"xxxx", "XXXX", "******", "######", "......", "______",
                                  "------", "00000000", NULL};
    static const char *words[] = {"example", "placeholder", "redacted", "changeme", "change_me",
                                  "dummy", "replaceme", "replace_me", "replace-me", "insert_",
                                  "insert-", NULL};
    static const char *kinds[] = {"key", "token", "secret", "pass", NULL};
    unsigned char c = s[at];
    for (int i = 0; exact[i] != NULL; i++)
        if ((unsigned char)exact[i][0] == c && starts(s, n, at, exact[i])) return 1;
    if (c == '$') {  /* \$[A-Z_]{3,}\b */
        Py_ssize_t e = at + 1;
        while (e < n && e - at <= 64 && (is_upper(s[e]) || s[e] == '_')) e++;
        if (e - at - 1 >= 3 && (e == n || !vg_word(s[e]))) return 1;
        return 0;
    }
    unsigned char l = vg_low(c);
    for (int i = 0; words[i] != NULL; i++)
        if ((unsigned char)words[i][0] == l && vg_case_at(s, n, at, words[i])) return 1;
    if (l == 'y' && vg_case_at(s, n, at, "your")) {
        /* your[_-]?(?:own[_-]?)?(?:api[_-]?)?(?:key|token|secret|pass...), one path */
        Py_ssize_t p = at + 4;
        if (p < n && (s[p] == '_' || s[p] == '-')) p++;
        if (vg_case_at(s, n, p, "own")) {
            p += 3;
            if (p < n && (s[p] == '_' || s[p] == '-')) p++;
        }
        if (vg_case_at(s, n, p, "api")) {
            p += 3;
            if (p < n && (s[p] == '_' || s[p] == '-')) p++;
        }
        for (int i = 0; kinds[i] != NULL; i++)
            if (vg_case_at(s, n, p, kinds[i])) return 1;
    }
    return 0;
}

/* A code word (any case) at s[at] followed by a byte `after` accepts (or the
 * line's end when `end_ok`), optionally past a run of "," and ";". */
static int vg_code(const unsigned char *s, Py_ssize_t n, Py_ssize_t at, PyObject *codes,
                   int quoted) {
    Py_ssize_t k = PyTuple_GET_SIZE(codes);
    for (Py_ssize_t w = 0; w < k; w++) {
        PyObject *word = PyTuple_GET_ITEM(codes, w);
        Py_ssize_t len = PyBytes_GET_SIZE(word);
        const unsigned char *t = (const unsigned char *)PyBytes_AS_STRING(word);
        if (len == 0 || at + len > n) continue;
        Py_ssize_t i = 0;
        while (i < len && vg_low(s[at + i]) == t[i]) i++;
        if (i < len) continue;
        Py_ssize_t e = at + len;
        if (quoted) {  /* CODE[,;]*["'`] */
            while (e < n && (s[e] == ',' || s[e] == ';')) e++;
            if (e < n && vg_quote(s[e])) return 1;
        } else if (e == n || !vg_run(s[e])) {  /* CODE(?!run) */
            return 1;
        }
    }
    return 0;
}

/* A Windows variable (%[A-Z_][A-Z0-9_]*%) at s[at], then a quote (quoted) or
 * no byte of the run. */
static int vg_win_var(const unsigned char *s, Py_ssize_t n, Py_ssize_t at, int quoted) {
    if (at + 2 >= n || s[at] != '%' || !(is_upper(s[at + 1]) || s[at + 1] == '_')) return 0;
    Py_ssize_t e = at + 2;
    while (e < n && (is_upper(s[e]) || is_digit(s[e]) || s[e] == '_')) e++;
    if (e >= n || s[e] != '%') return 0;
    e++;
    return quoted ? (e < n && vg_quote(s[e])) : (e == n || !vg_run(s[e]));
}

/* Whether the value at s[v] is a run of words and a number, whole
 * (proof._drawn): [A-Za-z][A-Za-z_.-]{3,99}+ then ([0-9]{2,6}+ and a sign
 * maybe, or [0-9]{1,6}+ and a sign), a closer maybe, then no byte of the
 * value's class.  Every path of that pattern is tried (its repeats take
 * all they can). */
static int vg_sign(unsigned char c) {
    return c != 0 && strchr("!#$%&*?@^~+=", c) != NULL;
}
static int vg_words_number(const unsigned char *s, Py_ssize_t n, Py_ssize_t v, int quoted) {
    if (v >= n || !(is_upper(s[v]) || is_lower(s[v]))) return 0;
    Py_ssize_t p = v + 1, q = p;
    while (q < n && q - p < 99 && (is_upper(s[q]) || is_lower(s[q]) || s[q] == '_' || s[q] == '.'
                                   || s[q] == '-'))
        q++;
    if (q - p < 3) return 0;
    Py_ssize_t e = q;
    while (e < n && e - q < 6 && is_digit(s[e])) e++;
    Py_ssize_t d = e - q;
    if (d == 0) return 0;
    Py_ssize_t ends[2];
    int k = 0;
    if (d >= 2) ends[k++] = e;
    if (e < n && vg_sign(s[e])) ends[k++] = e + 1;
    for (int i = 0; i < k; i++) {
        for (int closer = 0; closer < 2; closer++) {
            Py_ssize_t f = ends[i];
            if (closer) {
                if (f >= n || !(s[f] == ')' || s[f] == ']' || s[f] == '}')) continue;
                f++;
            }
            if (f == n || (quoted ? !vg_qch(s[f]) : !vg_run(s[f]))) return 1;
        }
    }
    return 0;
}

/* A dotted name of parts none of which reads as random, whole, at s[v]
 * (proof._DOTTED, then no byte of the run): parts of [A-Za-z_$] then
 * [A-Za-z0-9_$]* (taken whole), each with no has_digit, or no capital, or no
 * small letter, or of five bytes at most; joined by ".", "::" or "->"; a
 * "(" or "()" may end it. */
static int vg_ident(unsigned char c) { return is_alnum(c) || c == '_' || c == '$'; }
static Py_ssize_t vg_part(const unsigned char *s, Py_ssize_t n, Py_ssize_t p) {
    if (p >= n || !(is_upper(s[p]) || is_lower(s[p]) || s[p] == '_' || s[p] == '$')) return -1;
    Py_ssize_t e = p;
    int has_digit = 0, has_upper = 0, has_lower = 0;
    while (e < n && vg_ident(s[e])) {
        has_digit |= is_digit(s[e]);
        has_upper |= is_upper(s[e]);
        has_lower |= is_lower(s[e]);
        e++;
    }
    return (!has_digit || !has_upper || !has_lower || e - p <= 5) ? e : -1;
}
static int vg_dotted(const unsigned char *s, Py_ssize_t n, Py_ssize_t v) {
    Py_ssize_t e = vg_part(s, n, v);
    int parts = 1;
    while (e >= 0 && e < n) {
        Py_ssize_t f;
        if (s[e] == '.')
            f = e + 1;
        else if (e + 1 < n && ((s[e] == ':' && s[e + 1] == ':') || (s[e] == '-' && s[e + 1] == '>')))
            f = e + 2;
        else
            break;
        Py_ssize_t g = vg_part(s, n, f);
        if (g < 0) return 0;  /* (the part after a separator fails: no shorter path ends well) */
        e = g;
        parts++;
    }
    if (e < 0 || parts < 2) return 0;
    if (e == n || !vg_run(s[e])) return 1;
    if (s[e] != '(') return 0;
    e++;
    if (e == n || !vg_run(s[e])) return 1;
    return s[e] == ')' && (e + 1 == n || !vg_run(s[e + 1]));
}

/* A bare run of [A-Za-z_] (at most 300 bytes) at s[v], ended by a quote
 * (quoted) or no byte of the run, that holds one of `names` (any case). */
static int vg_named(const unsigned char *s, Py_ssize_t n, Py_ssize_t v, int quoted,
                    PyObject *names) {
    Py_ssize_t e = v;
    while (e < n && e - v <= VG_WINDOW && (is_upper(s[e]) || is_lower(s[e]) || s[e] == '_')) e++;
    if (e == v || e - v > VG_WINDOW) return 0;
    if (quoted ? !(e < n && vg_quote(s[e])) : !(e == n || !vg_run(s[e]))) return 0;
    Py_ssize_t k = PyTuple_GET_SIZE(names);
    for (Py_ssize_t a = v; a < e; a++) {
        for (Py_ssize_t w = 0; w < k; w++) {
            PyObject *word = PyTuple_GET_ITEM(names, w);
            Py_ssize_t len = PyBytes_GET_SIZE(word);
            const unsigned char *t = (const unsigned char *)PyBytes_AS_STRING(word);
            if (len == 0 || a + len > e || vg_low(s[a]) != t[0]) continue;
            Py_ssize_t i = 1;
            while (i < len && vg_low(s[a + i]) == t[i]) i++;
            if (i == len) return 1;
        }
    }
    return 0;
}

/* Whether the value at s[v] (after its quote when `quoted`) may pass. */
static int vg_value(const unsigned char *s, Py_ssize_t n, Py_ssize_t v, int quoted,
                    PyObject *codes, PyObject *names) {
    if (v >= n) return 0;
    unsigned char c0 = s[v];
    if (quoted ? (vg_quote(c0) || is_ws(c0)) : !vg_run(c0)) return 0;
    /* the value's class from v, its length counted to one past the window */
    Py_ssize_t len = 0;
    int has_digit = 0, has_upper = 0, has_lower = 0, has_sign = 0;
    while (v + len < n && len <= VG_WINDOW) {
        unsigned char c = s[v + len];
        if (quoted ? !vg_qch(c) : !vg_run(c)) break;
        has_digit |= is_digit(c);
        has_upper |= is_upper(c);
        has_lower |= is_lower(c);
        has_sign |= !is_alnum(c) && !is_ws(c);
        len++;
    }
    /* drawn (proof._drawn) */
    if (len >= 10) {
        Py_ssize_t h = 0;
        while (h < 32 && v + h < n && (is_digit(s[v + h]) || (vg_low(s[v + h]) >= 'a'
                                                              && vg_low(s[v + h]) <= 'f')))
            h++;
        if (h == 32) return 1;
        int uuid = v + 14 <= n && s[v + 8] == '-' && s[v + 13] == '-';
        for (Py_ssize_t i = 0; uuid && i < 13; i++)
            uuid = i == 8 || is_digit(s[v + i]) || (s[v + i] >= 'a' && s[v + i] <= 'f');
        if (uuid) return 1;
        if (has_digit && vg_words_number(s, n, v, quoted)) return 1;
        if (has_digit && has_upper && has_lower && has_sign) return 1;
    }
    /* the main conditions */
    if (c0 == '$' || c0 == '<' || c0 == '{' || len < 6) return 0;
    if (vg_win_var(s, n, v, quoted) || vg_code(s, n, v, codes, quoted)
        || vg_named(s, n, v, quoted, names))
        return 0;
    if (quoted) {
        for (Py_ssize_t k = 0; k < len && k <= VG_WINDOW; k++) {
            if (vg_placeholder(s, n, v + k)) return 0;
            if (s[v + k] == '#' && v + k + 1 < n && s[v + k + 1] == '{') return 0;
        }
        return 1;
    }
    if (len > VG_WINDOW) return 1;  /* (the run's conditions look at a run of 300 at most) */
    unsigned char last = s[v + len - 1];
    if (last == '.' || last == ':' || vg_dotted(s, n, v)) return 0;
    for (Py_ssize_t k = 0; k < len; k++) {
        unsigned char c = s[v + k];
        if (c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}') return 0;
        if (vg_placeholder(s, n, v + k)) return 0;
    }
    return 1;
}

/* secret-scrambled-value's value (builtin.SCRAMBLED) at s[v]: ten bytes of
 * its class, and within the run of bytes that are no blank or quote from v
 * (the first 301): a sign of code (()[]{}<>$*@&), a has_digit, a capital and a
 * small letter (the pattern's lookaheads, without its refusals). */
static int vg_scrambled(const unsigned char *s, Py_ssize_t n, Py_ssize_t v, int quoted) {
    Py_ssize_t len = 0;
    while (v + len < n && len < 10
           && (quoted ? !(vg_quote(s[v + len]) || is_ws(s[v + len])) : vg_run(s[v + len])))
        len++;
    if (len < 10) return 0;
    int sym = 0, has_digit = 0, has_upper = 0, has_lower = 0;
    for (Py_ssize_t k = 0; k <= VG_WINDOW && v + k < n; k++) {
        unsigned char c = s[v + k];
        if (is_ws(c) || vg_quote(c)) break;
        sym |= c != 0 && strchr("()[]{}<>$*@&", c) != NULL;
        has_digit |= is_digit(c);
        has_upper |= is_upper(c);
        has_lower |= is_lower(c);
    }
    return sym && has_digit && has_upper && has_lower;
}

/* Whether a key that names a secret ends before the operator whose last
 * byte is s[i] (mode VG_KEY; the whole proofs of secret-assignment,
 * secret-table-cell and secret-scrambled-value start with one): the
 * operator starts at one of its last three bytes; before it, past blanks,
 * quotes, "]", "*", "$" and "@", one of `keys` then "_", "." or "-" bytes
 * then one of `suffixes` (or none) ends, in any case, a "_" of a suffix
 * read as "_" or "-" (proof._KEY_KIND and builtin.KEY_END, read loosely). */
static int vg_skip_before_op(unsigned char c) {
    return c == ' ' || c == '\t' || c == '*' || c == ']' || vg_quote(c) || c == '$' || c == '@';
}
static int vg_ends_with(const unsigned char *s, Py_ssize_t e, PyObject *word, int dash) {
    Py_ssize_t len = PyBytes_GET_SIZE(word);
    const unsigned char *t = (const unsigned char *)PyBytes_AS_STRING(word);
    if (len > e) return 0;
    for (Py_ssize_t k = len - 1; k >= 0; k--) {
        unsigned char c = vg_low(s[e - len + k]);
        if (c != t[k] && !(dash && t[k] == '_' && c == '-')) return 0;
    }
    return 1;
}
static int vg_key_before(const unsigned char *s, Py_ssize_t i, PyObject *keys,
                         PyObject *suffixes) {
    for (Py_ssize_t p = i; p >= 0 && p > i - 3; p--) {
        Py_ssize_t e = p;
        while (e > 0 && vg_skip_before_op(s[e - 1])) e--;
        for (Py_ssize_t x = 0; x < PyTuple_GET_SIZE(suffixes); x++) {
            PyObject *sfx = PyTuple_GET_ITEM(suffixes, x);
            if (!vg_ends_with(s, e, sfx, 1)) continue;
            Py_ssize_t g = e - PyBytes_GET_SIZE(sfx);
            while (g > 0 && (s[g - 1] == '_' || s[g - 1] == '.' || s[g - 1] == '-')) g--;
            for (Py_ssize_t w = 0; w < PyTuple_GET_SIZE(keys); w++)
                if (vg_ends_with(s, g, PyTuple_GET_ITEM(keys, w), 0)) return 1;
        }
    }
    return 0;
}

static int vg_line(const unsigned char *s, Py_ssize_t n, int mode, PyObject *const *words) {
    PyObject *codes = words[0], *names = words[1];
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        int op;
        if ((mode & VG_KIND) == VG_PIPE)
            op = c == '|';
        else
            op = c == ':' || c == '=' || (c == '>' && i > 0 && s[i - 1] == '=')
                 || (c == '-' && i > 0 && s[i - 1] == '<')
                 || ((c == 0x9a || c == 0x9d) && i > 1 && s[i - 1] == 0xbc && s[i - 2] == 0xef);
        if (!op) continue;
        Py_ssize_t v = i + 1;
        while (v < n && (s[v] == ' ' || s[v] == '\t')) v++;
        if (v >= n) continue;
        int quoted = vg_quote(s[v]);
        if (((mode & VG_KIND) == VG_SCRAMBLED ? vg_scrambled(s, n, v + quoted, quoted)
                                              : vg_value(s, n, v + quoted, quoted, codes, names))
            && (!(mode & VG_KEY) || vg_key_before(s, i, words[2], words[3])))
            return 1;
    }
    return 0;
}

typedef struct {
    int mode;
    PyObject *words[4];
} GateArgs;

static int gate_test(const unsigned char *s, Py_ssize_t n, void *ctx) {
    GateArgs *a = ctx;
    return vg_line(s, n, a->mode, a->words);
}

static PyObject *value_gate(PyObject *self, PyObject *args) {
    PyObject *lines;
    GateArgs a;
    (void)self;
    if (!PyArg_ParseTuple(args, "OiO!O!O!O!", &lines, &a.mode, &PyTuple_Type, &a.words[0],
                          &PyTuple_Type, &a.words[1], &PyTuple_Type, &a.words[2], &PyTuple_Type,
                          &a.words[3]))
        return NULL;
    if ((a.mode & VG_KIND) > VG_SCRAMBLED || (a.mode & ~(VG_KIND | VG_KEY))) {
        PyErr_SetString(PyExc_ValueError, "mode must be 0, 1 or 2, with 4 or not");
        return NULL;
    }
    for (int t = 0; t < 4; t++)
        if (!all_bytes(a.words[t])) return NULL;
    return lines_where(lines, gate_test, &a);
}

static PyMethodDef methods[] = {
    {"vector_width", vector_width, METH_VARARGS, "The native scan's vector width (0, 16, 32)."},
    {"run_all", run_all, METH_VARARGS,
     "Redact the whole buffer, looking only at trigger lines while idle."},
    {"scan", scan, METH_VARARGS, "The native prefilter: a position per line with a trigger."},
    {"count_lines", count_lines, METH_VARARGS, "The newlines in buf[start:end]."},
    {"line_slices", line_slices, METH_VARARGS,
     "The line at each candidate's start, one object per distinct line."},
    {"base64_words", base64_words, METH_VARARGS,
     "The indices of the lines with a whole base64 run holding one of the words."},
    {"value_gate", value_gate, METH_VARARGS,
     "The indices of the lines where an operator is followed by a value that may pass."},
    {"redact_fd", redact_fd, METH_VARARGS,
     "Redact one input descriptor to an output descriptor, the state carrying on."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_machine", "The redaction line machine in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

/* The interface version: council_filters/redaction/native.py uses a build only when it
 * says the same number (a module left from an older build is ignored, and
 * the Python path runs instead of calling functions that changed). */
#define MACHINE_ABI 2

PyMODINIT_FUNC PyInit__machine(void) {
    init_run_classes();
    init_body_classes();
    choose_vector_width();
    if (PyType_Ready(&MatchesType) < 0 || PyType_Ready(&DistinctType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "ABI", MACHINE_ABI) < 0) Py_CLEAR(m);
    if (m != NULL) {
        Py_INCREF(&DistinctType);
        if (PyModule_AddObject(m, "Distinct", (PyObject *)&DistinctType) < 0) {
            Py_DECREF(&DistinctType);
            Py_CLEAR(m);
        }
    }
    if (m != NULL) {
        Py_INCREF(&MatchesType);
        if (PyModule_AddObject(m, "Matches", (PyObject *)&MatchesType) < 0) {
            Py_DECREF(&MatchesType);
            Py_CLEAR(m);
        }
    }
    return m;
}
