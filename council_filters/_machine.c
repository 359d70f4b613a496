/*
 * The redaction line machine in C: the same decisions as Redactor._step in
 * council_filters/redaction.py, for the plain path (no counts, no extra
 * rules).  Optional: when this module is not built, the Python machine runs.
 * The tests hold the two to the same output byte for byte.
 *
 * run_all(buf, end, hits, state[, record]) -> bytes: see below.  state is a
 * list of nine ints, read and written back:
 *   [nr, in_pem, real, prev_real, stray, span, key_len, chain, watch].
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

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
static int all_b64(const unsigned char *s, Py_ssize_t n) {
    if (n == 0) return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (!is_b64(s[i])) return 0;
    return 1;
}
static int has_letter_g_z(const unsigned char *s, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if ((c >= 'G' && c <= 'Z') || (c >= 'g' && c <= 'z') || c == '+' || c == '/' || c == '=')
            return 1;
    }
    return 0;
}
static int has_digit_or_sym(const unsigned char *s, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (is_digit(c) || c == '+' || c == '/' || c == '=') return 1;
    }
    return 0;
}
static int has_sym(const unsigned char *s, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++)
        if (s[i] == '+' || s[i] == '/' || s[i] == '=') return 1;
    return 0;
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
enum { CL_SK_WIDE, CL_ALNUM, CL_AIZA, CL_PAT, CL_AKIA, CL_BEARER, CL_AUTH };
static int in_class(int cl, unsigned char c) {
    switch (cl) {
    case CL_SK_WIDE: return is_alnum(c) || c == '_' || c == '-';
    case CL_ALNUM: return is_alnum(c);
    case CL_AIZA: return is_alnum(c) || c == '_' || c == '-';
    case CL_PAT: return is_alnum(c) || c == '_';
    case CL_AKIA: return is_digit(c) || is_upper(c);
    case CL_BEARER: return is_alnum(c) || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '-';
    case CL_AUTH: return is_alnum(c) || c == ' ' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '-';
    }
    return 0;
}
static int run_at_least(const unsigned char *s, Py_ssize_t n, Py_ssize_t at, int cl, Py_ssize_t k) {
    if (n - at < k) return 0;
    for (Py_ssize_t i = 0; i < k; i++)
        if (!in_class(cl, s[at + i])) return 0;
    return 1;
}
static int credential(const unsigned char *s, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        switch (s[i]) {
        case 's':
            if (starts(s, n, i, "sk-")) {
                if (starts(s, n, i, "sk-proj-") && run_at_least(s, n, i + 8, CL_SK_WIDE, 20)) return 1;
                if (starts(s, n, i, "sk-ant-") && run_at_least(s, n, i + 7, CL_SK_WIDE, 20)) return 1;
                if (run_at_least(s, n, i + 3, CL_ALNUM, 20)) return 1;
            } else if (starts(s, n, i, "ses_") && run_at_least(s, n, i + 4, CL_ALNUM, 16)) {
                return 1;
            }
            break;
        case 'A':
            if (starts(s, n, i, "AIza") && run_at_least(s, n, i + 4, CL_AIZA, 35)) return 1;
            if (starts(s, n, i, "AKIA") && run_at_least(s, n, i + 4, CL_AKIA, 16)) return 1;
            if (starts(s, n, i, "Authorization: ") && run_at_least(s, n, i + 15, CL_AUTH, 20)) return 1;
            break;
        case 'g':
            if (i + 3 < n && s[i + 1] == 'h' && (s[i + 2] == 'p' || s[i + 2] == 'o' ||
                s[i + 2] == 'u' || s[i + 2] == 's') && s[i + 3] == '_' &&
                run_at_least(s, n, i + 4, CL_ALNUM, 36))
                return 1;
            if (starts(s, n, i, "github_pat_") && run_at_least(s, n, i + 11, CL_PAT, 40)) return 1;
            break;
        case 'B':
            if (starts(s, n, i, "Bearer ") && run_at_least(s, n, i + 7, CL_BEARER, 20)) return 1;
            break;
        }
    }
    return 0;
}

/* ----- the machine ------------------------------------------------------ */
enum { KEEP, CREDENTIAL, PEM };

static int step(State *st, const unsigned char *line, Py_ssize_t n) {
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
            if (bn >= 12 && all_b64(body, bn) &&
                ((has_letter_g_z(body, bn) && has_digit_or_sym(body, bn)) ||
                 (st->chain && bn == st->key_len && !one_word(body, bn)))) {
                st->in_pem = 1;
                st->stray = st->span = 0;
                st->real = st->prev_real && has_sym(body, bn);
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
            if (e - b >= 12 && all_b64(line + b, e - b)) {
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
                    if (bn >= 12 && all_b64(body, bn) &&
                        ((has_letter_g_z(body, bn) && (bn >= 20 || has_digit_or_sym(body, bn))) ||
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
    if (credential(line, n)) return CREDENTIAL;
    return KEEP;
}

/* Newlines in [p, p + n): a plain loop the compiler vectorizes. */
static Py_ssize_t count_nl(const unsigned char *p, Py_ssize_t n) {
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < n; i++) k += p[i] == '\n';
    return k;
}

/* ----- output buffer ---------------------------------------------------- */
/* The output and the replaced lines, in raw memory (no GIL needed). */
typedef struct { char *p; Py_ssize_t len, cap; } Out;
static int out_put(Out *o, const void *data, Py_ssize_t k) {
    if (o->len + k > o->cap) {
        Py_ssize_t cap = o->cap ? o->cap : 4096;
        while (cap < o->len + k) cap *= 2;
        char *p = PyMem_RawRealloc(o->p, (size_t)cap);
        if (p == NULL) return -1;
        o->p = p;
        o->cap = cap;
    }
    memcpy(o->p + o->len, data, (size_t)k);
    o->len += k;
    return 0;
}
typedef struct { long long nr; Py_ssize_t verdict, start, end; } Replaced;

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

/* run_all(buf, end, hits, state[, record]) -> bytes
 *   The whole of buf[0:end] (whole lines).  hits: sorted positions, each
 *   inside a line the prefilter reports; while the machine is idle, only those
 *   lines are looked at, and the runs between them are copied as they are.
 *   record (a list, or None): for every replaced line, four ints are appended:
 *   its number, 1 (credential) or 2 (PEM), and where the line starts and ends. */
static PyObject *run_all(PyObject *self, PyObject *args) {
    Py_buffer view;
    Py_ssize_t end;
    PyObject *hits, *state, *record = Py_None;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*nOO|O", &view, &end, &hits, &state, &record)) return NULL;
    State st;
    if ((record != Py_None && !PyList_Check(record)) || !PyList_Check(hits) ||
        read_state(state, &st) < 0 || end < 0 || end > view.len) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "bad arguments");
        PyBuffer_Release(&view);
        return NULL;
    }
    /* Everything the loop needs, copied out of Python objects first: the loop
     * then runs without the GIL, so a thread can scan the next buffer. */
    Py_ssize_t n_hits = PyList_GET_SIZE(hits);
    Py_ssize_t *hv = PyMem_RawMalloc(sizeof(Py_ssize_t) * (size_t)(n_hits ? n_hits : 1));
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
    const unsigned char *s = view.buf;
    int want_record = record != Py_None;
    Out o = {NULL, 0, 0};
    Replaced *rep = NULL;
    Py_ssize_t n_rep = 0, cap_rep = 0, hi = 0, pos = 0;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    char ph[80];
    if (end > 0) {
        o.p = PyMem_RawMalloc((size_t)(end + 256));
        o.cap = o.p ? end + 256 : 0;
    }
    while (pos < end && !failed) {
        if (!st.in_pem && !st.watch) {
            while (hi < n_hits && hv[hi] < pos) hi++;
            if (hi >= n_hits || hv[hi] >= end) {
                st.nr += count_nl(s + pos, end - pos);
                failed = out_put(&o, s + pos, end - pos);
                pos = end;
                break;
            }
            Py_ssize_t start = hv[hi];
            while (start > pos && s[start - 1] != '\n') start--;
            if (start > pos) {
                st.nr += count_nl(s + pos, start - pos);
                failed = out_put(&o, s + pos, start - pos);
                pos = start;
                if (failed) break;
            }
        }
        const unsigned char *nlp = memchr(s + pos, '\n', (size_t)(end - pos));
        Py_ssize_t nl = nlp ? nlp - s : end;
        int verdict = step(&st, s + pos, nl - pos);
        if (verdict == KEEP) {
            failed = out_put(&o, s + pos, nl + 1 - pos);
        } else {
            int k = snprintf(ph, sizeof ph, verdict == PEM ?
                             "--- redacted PEM key block at line %lld ---\n" :
                             "--- redacted credential at line %lld ---\n", st.nr);
            failed = out_put(&o, ph, k);
            if (!failed && want_record) {
                if (n_rep == cap_rep) {
                    Py_ssize_t cap = cap_rep ? cap_rep * 2 : 64;
                    Replaced *r = PyMem_RawRealloc(rep, sizeof(Replaced) * (size_t)cap);
                    if (r == NULL) { failed = 1; break; }
                    rep = r;
                    cap_rep = cap;
                }
                rep[n_rep].nr = st.nr;
                rep[n_rep].verdict = verdict;
                rep[n_rep].start = pos;
                rep[n_rep].end = nl;
                n_rep++;
            }
        }
        pos = nl + 1;
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(hv);
    PyBuffer_Release(&view);
    PyObject *bytes = failed ? NULL : PyBytes_FromStringAndSize(o.p ? o.p : "", o.len);
    PyMem_RawFree(o.p);
    if (bytes == NULL) {
        PyMem_RawFree(rep);
        return failed ? PyErr_NoMemory() : NULL;
    }
    for (Py_ssize_t i = 0; i < n_rep; i++) {
        PyObject *item = Py_BuildValue("(Lnnn)", rep[i].nr, rep[i].verdict, rep[i].start,
                                       rep[i].end);
        if (item == NULL || PyList_Append(record, item) < 0) {
            Py_XDECREF(item);
            PyMem_RawFree(rep);
            Py_DECREF(bytes);
            return NULL;
        }
        Py_DECREF(item);
    }
    PyMem_RawFree(rep);
    if (write_state(state, &st) < 0) {
        Py_DECREF(bytes);
        return NULL;
    }
    return bytes;
}

static PyMethodDef methods[] = {
    {"run_all", run_all, METH_VARARGS, "Redact the whole buffer, looking only at hit lines while idle."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_machine", "The redaction line machine in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__machine(void) { return PyModule_Create(&module); }
