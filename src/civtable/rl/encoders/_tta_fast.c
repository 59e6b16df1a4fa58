/* The Through the Ages observation vector, assembled in C (optional speed-up).
 *
 * ThroughTheAgesEncoder.encode_state has a pure-Python path (ThroughTheAgesEncoder._parts);
 * when this extension is built, the encoder hands the same work to Plan.encode, which writes
 * the float32 vector in place instead of joining bytes blocks and converting them. It keeps
 * the same memory as the Python path (the encoder's _last entries and _row_costs) and rebuilds
 * a civilization's entry when one of its fields changed, reusing the parts whose inputs did not
 * change, by the rules ThroughTheAgesEncoder._civ_entry documents. Everything that depends on
 * the game's rules stays in Python: the parts of an entry (the encoder's _effects, _rates,
 * _played_of, _workers_of, _hand_of, _stocks), the row's prices (_costs), the pending military
 * decision (_pending2), the deciding seat and Joan of Arc's peek. This file reads state fields,
 * compares them and copies numbers, block by block in the order of the module doc of
 * through_the_ages.py; tests/rl checks that both paths give encode(view(seat)) on every
 * position of random games and that the entries kept here equal the Python path's.
 *
 * Plan.encode returns True when the vector is written and False when the caller must take the
 * reference path (an object of an unexpected type, an unset field, a ValueError from one of
 * the encoder's methods: an entry past 255, which the reference path clips). Entries written
 * here are clipped to [0, 255] as the reference path clips them. A card that cannot appear in
 * its block raises TypeError, as the Python path does.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

#define N_AGE_HOT 5   /* the age one-hot: A, I, II, III, IV */
#define N_PENDING 5   /* the pending kinds of the civil part ("none" first) */
#define MAX_SEATS 4
#define MAX_CIV_FIELDS 64
#define MAX_ROW 32

/* the TTAState fields read here, in this order */
static const char *STATE_FIELDS[] = {
    "players", "round", "age", "last_round", "over", "first", "current", "phase",
    "civil_decks", "mil_decks", "mil_discards", "events", "civs", "row", "common", "pending",
    "future", "past", "faceup", "pacts", "wars",
};
enum {
    S_PLAYERS, S_ROUND, S_AGE, S_LAST_ROUND, S_OVER, S_FIRST, S_CURRENT, S_PHASE,
    S_CIVIL_DECKS, S_MIL_DECKS, S_MIL_DISCARDS, S_EVENTS, S_CIVS, S_ROW, S_COMMON, S_PENDING,
    S_FUTURE, S_PAST, S_FACEUP, S_PACTS, S_WARS, N_STATE_FIELDS
};

/* the civilization fields read by name (their index in civ_fields is looked up once) */
static const char *NAMED[] = {
    "gov", "leader", "special", "wonders", "colonies", "pside", "workers", "ruins",
    "homer_wonder", "tactic", "xculture", "developed", "hand", "cubes", "culture", "science",
    "yellow", "blue", "pool", "wip_stages", "ca", "ma", "temp_ma", "mhand", "tactic_own", "wip",
    "flags", "secret", "replaced_leader",
};
enum {
    C_GOV, C_LEADER, C_SPECIAL, C_WONDERS, C_COLONIES, C_PSIDE, C_WORKERS, C_RUINS, C_HOMER,
    C_TACTIC, C_XCULTURE, C_DEVELOPED, C_HAND, C_CUBES, C_CULTURE, C_SCIENCE, C_YELLOW, C_BLUE,
    C_POOL, C_WIP_STAGES, C_CA, C_MA, C_TEMP_MA, C_MHAND, C_TACTIC_OWN, C_WIP, C_FLAGS, C_SECRET,
    C_REPLACED_LEADER, N_NAMED
};
#define HEAD 36 /* the civ block's numbers: 27 ints, the exclusive tactic, 8 cube counts */
#define BANK 64 /* bank sizes with a precomputed table */

/* a per-card block: each card index's position in it (-1: the card cannot appear) */
typedef struct {
    Py_ssize_t *pos;
    Py_ssize_t size;
} Block;

typedef struct {
    PyObject_HEAD
    int set_up; /* Plan.__init__ ran (once only) */
    Py_ssize_t players, size, n_cards, row_slots;
    /* offsets of the vector's blocks (see ThroughTheAgesEncoder.__init__) */
    Py_ssize_t row_at, pending_at, civ_at, civ_size, mhand_at, pol_at, pciv_at, pciv_size;
    Py_ssize_t pciv_own;
    /* pending kinds */
    long p_discard, p_option, phase_action;
    unsigned char card_kind[64]; /* kinds whose decision names a card (kind < 64) */
    Py_ssize_t *card_idx;        /* CARDS[x].idx */
    Block civil, tactics, military, events, pacts;
    /* the classes read by offset, and the offsets of their fields */
    PyTypeObject *state_type, *civ_type;
    Py_ssize_t state_off[N_STATE_FIELDS];
    Py_ssize_t civ_off[MAX_CIV_FIELDS];
    Py_ssize_t n_civ_fields;
    /* a civilization's entry (built here as ThroughTheAgesEncoder._civ_entry builds it) */
    Py_ssize_t at[N_NAMED];             /* a named field's index in civ_fields */
    Block wonders, territories;
    Py_ssize_t in_play_size, techs_size, no_treaties;
    long f_resigned;
    long required[BANK], pop_cost[BANK], consumption[BANK], corruption[BANK];
    PyObject *no_politics;              /* bytes(pciv_own) */
    /* the row's prices: per card, whether it is a wonder; per slot, the printed price of a card
     * other than a wonder; the rules' civil.take_cost */
    unsigned char *wonder;
    unsigned char plain_take[MAX_ROW];
    PyObject *take_cost;
    PyObject *s_effects, *s_rates, *s_stocks, *s_played_of, *s_workers_of, *s_hand_of;
    PyObject *s_bcost, *s_mods, *s_develop;
    PyObject *peeks; /* view.peeks(state, seat) */
    PyObject *s_last, *s_row_costs, *s_costs, *s_pending2, *s_decider;
} Plan;

/* ---- setup ------------------------------------------------------------------------------ */

static int
member_offset(PyTypeObject *type, const char *name, Py_ssize_t *out)
{
    PyObject *d = PyObject_GetAttrString((PyObject *)type, name);
    if (d == NULL) {
        return -1;
    }
    if (!Py_IS_TYPE(d, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "%s.%s is not a __slots__ field", type->tp_name, name);
        Py_DECREF(d);
        return -1;
    }
    PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
    if (m->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "%s.%s is not an object field", type->tp_name, name);
        Py_DECREF(d);
        return -1;
    }
    *out = m->offset;
    Py_DECREF(d);
    return 0;
}

static Py_ssize_t
int_item(PyObject *dict, const char *key)
{
    PyObject *v = PyDict_GetItemString(dict, key); /* borrowed */
    if (v == NULL) {
        PyErr_Format(PyExc_KeyError, "Plan: missing %s", key);
        return -1;
    }
    Py_ssize_t x = PyLong_AsSsize_t(v);
    if (x < 0 && !PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "Plan: %s must not be negative", key);
    }
    return x;
}

/* a tuple of card positions (None: cannot appear) -> Block */
static int
block_from(PyObject *dict, const char *key, Py_ssize_t n_cards, Block *b)
{
    PyObject *spec = PyDict_GetItemString(dict, key); /* (size, pos tuple) */
    if (spec == NULL || !PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != 2) {
        PyErr_Format(PyExc_TypeError, "Plan: %s must be a (size, positions) tuple", key);
        return -1;
    }
    b->size = PyLong_AsSsize_t(PyTuple_GET_ITEM(spec, 0));
    if (b->size < 0) {
        return -1;
    }
    PyObject *pos = PyTuple_GET_ITEM(spec, 1);
    if (!PyTuple_Check(pos) || PyTuple_GET_SIZE(pos) != n_cards) {
        PyErr_Format(PyExc_TypeError, "Plan: %s positions must be a tuple of %zd", key, n_cards);
        return -1;
    }
    b->pos = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)n_cards);
    if (b->pos == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n_cards; i++) {
        PyObject *p = PyTuple_GET_ITEM(pos, i);
        if (p == Py_None) {
            b->pos[i] = -1;
        }
        else {
            Py_ssize_t k = PyLong_AsSsize_t(p);
            if (k < 0 || k >= b->size) {
                if (!PyErr_Occurred()) {
                    PyErr_Format(PyExc_ValueError, "Plan: %s position out of range", key);
                }
                return -1;
            }
            b->pos[i] = k;
        }
    }
    return 0;
}

static void
Plan_dealloc(Plan *self)
{
    PyMem_Free(self->card_idx);
    PyMem_Free(self->wonder);
    Py_XDECREF(self->take_cost);
    PyMem_Free(self->civil.pos);
    PyMem_Free(self->tactics.pos);
    PyMem_Free(self->military.pos);
    PyMem_Free(self->events.pos);
    PyMem_Free(self->pacts.pos);
    PyMem_Free(self->wonders.pos);
    PyMem_Free(self->territories.pos);
    Py_XDECREF(self->no_politics);
    Py_XDECREF(self->s_effects);
    Py_XDECREF(self->s_rates);
    Py_XDECREF(self->s_stocks);
    Py_XDECREF(self->s_played_of);
    Py_XDECREF(self->s_workers_of);
    Py_XDECREF(self->s_hand_of);
    Py_XDECREF(self->s_bcost);
    Py_XDECREF(self->s_mods);
    Py_XDECREF(self->s_develop);
    Py_XDECREF(self->state_type);
    Py_XDECREF(self->civ_type);
    Py_XDECREF(self->peeks);
    Py_XDECREF(self->s_last);
    Py_XDECREF(self->s_row_costs);
    Py_XDECREF(self->s_costs);
    Py_XDECREF(self->s_pending2);
    Py_XDECREF(self->s_decider);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
Plan_init(Plan *self, PyObject *args, PyObject *kwds)
{
    PyObject *d;
    if (!PyArg_ParseTuple(args, "O!:Plan", &PyDict_Type, &d)) {
        return -1;
    }
    if (self->set_up) {
        PyErr_SetString(PyExc_RuntimeError, "Plan is already set up");
        return -1;
    }
    self->set_up = 1;
    Py_ssize_t *ints[] = {
        &self->players, &self->size, &self->n_cards, &self->row_slots, &self->row_at,
        &self->pending_at, &self->civ_at, &self->civ_size, &self->mhand_at, &self->pol_at,
        &self->pciv_at, &self->pciv_size, &self->pciv_own, &self->in_play_size,
        &self->techs_size,
    };
    const char *names[] = {
        "players", "size", "n_cards", "row_slots", "row_at", "pending_at", "civ_at",
        "civ_size", "mhand_at", "pol_at", "pciv_at", "pciv_size", "pciv_own", "in_play_size",
        "techs_size",
    };
    for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
        *ints[i] = int_item(d, names[i]);
        if (*ints[i] < 0) {
            return -1;
        }
    }
    if (self->players < 2 || self->players > MAX_SEATS) {
        PyErr_SetString(PyExc_ValueError, "Plan: 2 to 4 players");
        return -1;
    }
    Py_ssize_t k;
    if ((k = int_item(d, "p_discard")) < 0) return -1;
    self->p_discard = (long)k;
    if ((k = int_item(d, "p_option")) < 0) return -1;
    self->p_option = (long)k;
    if ((k = int_item(d, "phase_action")) < 0) return -1;
    self->phase_action = (long)k;
    if ((k = int_item(d, "f_resigned")) < 0) return -1;
    self->f_resigned = (long)k;
    const char *tables[] = {"required", "pop_cost", "consumption", "corruption"};
    long *arrays[] = {self->required, self->pop_cost, self->consumption, self->corruption};
    for (int j = 0; j < 4; j++) {
        PyObject *tab = PyDict_GetItemString(d, tables[j]);
        if (tab == NULL || !PyTuple_Check(tab) || PyTuple_GET_SIZE(tab) != BANK) {
            PyErr_Format(PyExc_TypeError, "Plan: %s must be a tuple of %d", tables[j], BANK);
            return -1;
        }
        for (Py_ssize_t b = 0; b < BANK; b++) {
            arrays[j][b] = PyLong_AsLong(PyTuple_GET_ITEM(tab, b));
            if (arrays[j][b] == -1 && PyErr_Occurred()) return -1;
        }
    }
    PyObject *kinds = PyDict_GetItemString(d, "card_kinds");
    if (kinds == NULL || !PyTuple_Check(kinds)) {
        PyErr_SetString(PyExc_TypeError, "Plan: card_kinds must be a tuple");
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kinds); i++) {
        Py_ssize_t kind = PyLong_AsSsize_t(PyTuple_GET_ITEM(kinds, i));
        if (kind < 0 || kind >= 64) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Plan: card kind >= 64");
            return -1;
        }
        self->card_kind[kind] = 1;
    }
    PyObject *idx = PyDict_GetItemString(d, "card_idx");
    if (idx == NULL || !PyTuple_Check(idx) || PyTuple_GET_SIZE(idx) != self->n_cards) {
        PyErr_SetString(PyExc_TypeError, "Plan: card_idx must be a tuple of n_cards");
        return -1;
    }
    self->card_idx = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)self->n_cards);
    if (self->card_idx == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < self->n_cards; i++) {
        self->card_idx[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(idx, i));
        if (self->card_idx[i] < 0 || self->card_idx[i] >= self->n_cards) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Plan: card_idx range");
            return -1;
        }
    }
    PyObject *wonder = PyDict_GetItemString(d, "wonder");
    PyObject *plain = PyDict_GetItemString(d, "plain_take");
    PyObject *take_cost = PyDict_GetItemString(d, "take_cost");
    if (wonder == NULL || !PyTuple_Check(wonder) || PyTuple_GET_SIZE(wonder) != self->n_cards ||
        plain == NULL || !PyTuple_Check(plain) || PyTuple_GET_SIZE(plain) != self->row_slots ||
        self->row_slots > MAX_ROW || take_cost == NULL || !PyCallable_Check(take_cost)) {
        PyErr_SetString(PyExc_TypeError, "Plan: wonder, plain_take, take_cost");
        return -1;
    }
    self->wonder = PyMem_Malloc((size_t)self->n_cards);
    if (self->wonder == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < self->n_cards; i++) {
        int yes = PyObject_IsTrue(PyTuple_GET_ITEM(wonder, i));
        if (yes < 0) return -1;
        self->wonder[i] = (unsigned char)yes;
    }
    for (Py_ssize_t i = 0; i < self->row_slots; i++) {
        long price = PyLong_AsLong(PyTuple_GET_ITEM(plain, i));
        if (price < 0 || price > 255) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Plan: plain_take range");
            return -1;
        }
        self->plain_take[i] = (unsigned char)price;
    }
    if (block_from(d, "civil", self->n_cards, &self->civil) < 0 ||
        block_from(d, "tactics", self->n_cards, &self->tactics) < 0 ||
        block_from(d, "military", self->n_cards, &self->military) < 0 ||
        block_from(d, "events", self->n_cards, &self->events) < 0 ||
        block_from(d, "pacts", self->n_cards, &self->pacts) < 0 ||
        block_from(d, "wonders", self->n_cards, &self->wonders) < 0 ||
        block_from(d, "territories", self->n_cards, &self->territories) < 0) {
        return -1;
    }
    PyObject *st = PyDict_GetItemString(d, "state_type");
    PyObject *ct = PyDict_GetItemString(d, "civ_type");
    PyObject *fields = PyDict_GetItemString(d, "civ_fields");
    PyObject *peeks = PyDict_GetItemString(d, "peeks");
    if (st == NULL || !PyType_Check(st) || ct == NULL || !PyType_Check(ct) || fields == NULL ||
        !PyTuple_Check(fields) || peeks == NULL || !PyCallable_Check(peeks)) {
        PyErr_SetString(PyExc_TypeError, "Plan: state_type, civ_type, civ_fields, peeks");
        return -1;
    }
    self->n_civ_fields = PyTuple_GET_SIZE(fields);
    if (self->n_civ_fields > MAX_CIV_FIELDS) {
        PyErr_SetString(PyExc_ValueError, "Plan: too many civilization fields");
        return -1;
    }
    for (Py_ssize_t i = 0; i < self->n_civ_fields; i++) {
        const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(fields, i));
        if (name == NULL || member_offset((PyTypeObject *)ct, name, &self->civ_off[i]) < 0) {
            return -1;
        }
    }
    for (int j = 0; j < N_NAMED; j++) {
        self->at[j] = -1;
        for (Py_ssize_t i = 0; i < self->n_civ_fields; i++) {
            if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(fields, i), NAMED[j]) == 0) {
                self->at[j] = i;
            }
        }
        if (self->at[j] < 0) {
            PyErr_Format(PyExc_ValueError, "Plan: civ_fields has no %s", NAMED[j]);
            return -1;
        }
    }
    for (int i = 0; i < N_STATE_FIELDS; i++) {
        if (member_offset((PyTypeObject *)st, STATE_FIELDS[i], &self->state_off[i]) < 0) {
            return -1;
        }
    }
    /* the layout must add up (a change on the Python side without one here fails early) */
    if (self->row_at + self->row_slots * self->civil.size + self->row_slots + self->tactics.size
            != self->pending_at ||
        self->pending_at + N_PENDING + self->n_cards + 1 != self->civ_at ||
        self->civ_at + self->players * self->civ_size != self->mhand_at ||
        self->mhand_at + self->military.size != self->pol_at ||
        self->pciv_own + self->pacts.size + self->players != self->pciv_size ||
        self->pciv_at + self->players * self->pciv_size != self->size ||
        self->row_at != 9 + 2 * self->players + 13 ||
        self->civ_size != HEAD + self->in_play_size + 3 * self->techs_size + self->wonders.size +
                              self->civil.size + self->tactics.size ||
        self->pciv_own != 2 + self->territories.size + self->wonders.size) {
        PyErr_SetString(PyExc_ValueError, "Plan: the layout does not add up");
        return -1;
    }
    Py_INCREF(st);
    self->state_type = (PyTypeObject *)st;
    Py_INCREF(ct);
    self->civ_type = (PyTypeObject *)ct;
    Py_INCREF(peeks);
    self->peeks = peeks;
    Py_INCREF(take_cost);
    self->take_cost = take_cost;
    self->s_last = PyUnicode_InternFromString("_last");
    self->s_costs = PyUnicode_InternFromString("_costs");
    self->s_row_costs = PyUnicode_InternFromString("_row_costs");
    self->s_pending2 = PyUnicode_InternFromString("_pending2");
    self->s_decider = PyUnicode_InternFromString("decider");
    self->no_treaties = self->pacts.size + self->players;
    self->no_politics = PyBytes_FromStringAndSize(NULL, self->pciv_own);
    if (self->no_politics != NULL) {
        memset(PyBytes_AS_STRING(self->no_politics), 0, (size_t)self->pciv_own);
    }
    self->s_effects = PyUnicode_InternFromString("_effects");
    self->s_rates = PyUnicode_InternFromString("_rates");
    self->s_stocks = PyUnicode_InternFromString("_stocks");
    self->s_played_of = PyUnicode_InternFromString("_played_of");
    self->s_workers_of = PyUnicode_InternFromString("_workers_of");
    self->s_hand_of = PyUnicode_InternFromString("_hand_of");
    self->s_bcost = PyUnicode_InternFromString("bcost");
    self->s_mods = PyUnicode_InternFromString("mods");
    self->s_develop = PyUnicode_InternFromString("develop_technology");
    if (!self->s_last || !self->s_row_costs || !self->s_costs || !self->s_pending2 ||
        !self->s_decider || !self->no_politics || !self->s_effects || !self->s_rates ||
        !self->s_stocks || !self->s_played_of || !self->s_workers_of || !self->s_hand_of ||
        !self->s_bcost || !self->s_mods || !self->s_develop) {
        return -1;
    }
    return 0;
}

/* ---- encoding ----------------------------------------------------------------------------- */

/* what a step returns: done, take the reference path, or an exception is set */
#define OK 0
#define REFERENCE 1
#define ERROR (-1)

static inline float
clip(long x)
{
    return x < 0 ? 0.0f : (x > 255 ? 255.0f : (float)x);
}

static inline void
add_one(float *v)
{
    if (*v < 255.0f) {
        *v += 1.0f;
    }
}

/* a field of an object read by offset (borrowed; NULL: unset) */
static inline PyObject *
field(PyObject *obj, Py_ssize_t offset)
{
    return *(PyObject **)((char *)obj + offset);
}

/* an int field or item: REFERENCE if it is not an int */
static inline int
as_long(PyObject *x, long *out)
{
    if (x == NULL || !PyLong_CheckExact(x)) {
        return REFERENCE;
    }
    int overflow;
    *out = PyLong_AsLongAndOverflow(x, &overflow);
    return overflow ? REFERENCE : OK;
}

/* a list field: return REFERENCE if it is not a list */
#define LIST_OR_REFERENCE(var, obj, off)                                                      \
    PyObject *var = field((obj), (off));                                                      \
    if (var == NULL || !PyList_CheckExact(var)) return REFERENCE;

/* the same inside encode once it holds references: set r and go to done */
#define LIST_OR_DONE(var, obj, off)                                                           \
    PyObject *var = field((obj), (off));                                                      \
    if (var == NULL || !PyList_CheckExact(var)) {                                             \
        r = REFERENCE;                                                                        \
        goto done;                                                                            \
    }

static int
card_pos(const Plan *p, const Block *b, PyObject *item, Py_ssize_t *out)
{
    long card;
    if (as_long(item, &card) != OK) {
        return REFERENCE;
    }
    if (card < 0 || card >= p->n_cards) {
        PyErr_Format(PyExc_IndexError, "card index %ld out of range", card);
        return ERROR;
    }
    if (b->pos[card] < 0) {
        PyErr_Format(PyExc_TypeError, "card %ld cannot appear in this block", card);
        return ERROR;
    }
    *out = b->pos[card];
    return OK;
}

/* copies per card of a list of cards, added at v */
static int
counts(const Plan *p, const Block *b, PyObject *cards, float *v)
{
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(cards); i++) {
        Py_ssize_t at;
        int r = card_pos(p, b, PyList_GET_ITEM(cards, i), &at);
        if (r != OK) {
            return r;
        }
        add_one(v + at);
    }
    return OK;
}

/* bytes (or bytearray) of exactly n entries copied to v */
static int
copy_bytes(PyObject *b, Py_ssize_t n, float *v)
{
    const unsigned char *data;
    Py_ssize_t len;
    if (PyBytes_CheckExact(b)) {
        data = (const unsigned char *)PyBytes_AS_STRING(b);
        len = PyBytes_GET_SIZE(b);
    }
    else if (PyByteArray_CheckExact(b)) {
        data = (const unsigned char *)PyByteArray_AS_STRING(b);
        len = PyByteArray_GET_SIZE(b);
    }
    else {
        return REFERENCE;
    }
    if (len != n) {
        PyErr_Format(PyExc_RuntimeError, "a block of %zd entries where %zd were expected", len, n);
        return ERROR;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        v[i] = (float)data[i];
    }
    return OK;
}

/* the result of one of the encoder's methods: a ValueError (an entry past 255) sends the
 * call to the reference path, as it does on the Python path */
static int
called(PyObject *result, PyObject **out)
{
    if (result == NULL) {
        if (PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear();
            return REFERENCE;
        }
        return ERROR;
    }
    *out = result;
    return OK;
}

static int
same(PyObject *a, PyObject *b)
{
    return a == b ? 1 : PyObject_RichCompareBool(a, b, Py_EQ);
}

/* a method of the encoder called with the given arguments (a new reference, or NULL) */
static PyObject *
call(PyObject *name, PyObject *enc, PyObject *a, PyObject *b, PyObject *c)
{
    PyObject *args[] = {enc, a, b, c};
    size_t n = c != NULL ? 4 : (b != NULL ? 3 : 2);
    return PyObject_VectorcallMethod(name, args, n | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
}

/* a tuple of exactly n items, or NULL with TypeError */
static PyObject *
tuple_of(PyObject *x, Py_ssize_t n, const char *what)
{
    if (x != NULL && (!PyTuple_CheckExact(x) || PyTuple_GET_SIZE(x) != n)) {
        PyErr_Format(PyExc_TypeError, "%s must be a tuple of %zd", what, n);
        Py_DECREF(x);
        return NULL;
    }
    return x;
}

/* bytes of exactly n entries appended at *w */
static int
append(PyObject *b, Py_ssize_t n, unsigned char **w)
{
    if (!PyBytes_CheckExact(b) || PyBytes_GET_SIZE(b) != n) {
        PyErr_Format(PyExc_RuntimeError, "a civ block part of %zd bytes was expected", n);
        return ERROR;
    }
    memcpy(*w, PyBytes_AS_STRING(b), (size_t)n);
    *w += n;
    return OK;
}

/* the one-hot block of card x (-1: none) at *w */
static int
one_hot(const Plan *p, const Block *b, PyObject *x, unsigned char **w)
{
    memset(*w, 0, (size_t)b->size);
    long card;
    if (as_long(x, &card) != OK) {
        return REFERENCE;
    }
    if (card != -1) {
        Py_ssize_t at;
        int r = card_pos(p, b, x, &at);
        if (r != OK) {
            return r;
        }
        (*w)[at] = 1;
    }
    *w += b->size;
    return OK;
}

static inline unsigned char
u8(long x)
{
    return x < 0 ? 0 : (x > 255 ? 255 : (unsigned char)x);
}

/* the numbers of a tuple of ints */
static int
longs(PyObject *t, long *out, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (as_long(PyTuple_GET_ITEM(t, i), &out[i]) != OK) {
            return REFERENCE;
        }
    }
    return OK;
}

/* civ's entry, as ThroughTheAgesEncoder._civ_entry makes it: its snapshot (the fields, lists
 * copied), civ block, politics start, effects, ratings, cards in play, hand, effect numbers,
 * workers, politics start with no treaties, stocks. What old holds is reused when the fields
 * it depends on are unchanged (the same rules as _civ_entry's, which documents them); the
 * rest comes from the encoder's methods _effects, _rates, _played_of, _workers_of, _hand_of,
 * _stocks. */
static int
build_entry(Plan *p, PyObject *enc, PyObject *civ, PyObject *old, PyObject **out)
{
    const Py_ssize_t nf = p->n_civ_fields;
    const Py_ssize_t *at = p->at;
    PyObject *snap = PyTuple_New(nf);
    if (snap == NULL) {
        return ERROR;
    }
    for (Py_ssize_t i = 0; i < nf; i++) {
        PyObject *x = field(civ, p->civ_off[i]);
        if (x == NULL) {
            Py_DECREF(snap);
            return REFERENCE;
        }
        if (PyList_CheckExact(x)) {
            x = PyList_GetSlice(x, 0, PyList_GET_SIZE(x));
            if (x == NULL) {
                Py_DECREF(snap);
                return ERROR;
            }
        }
        else {
            Py_INCREF(x);
        }
        PyTuple_SET_ITEM(snap, i, x);
    }
    /* the reused parts (new references) */
    PyObject *f = NULL, *fvals = NULL, *rates = NULL, *played = NULL, *workers = NULL;
    PyObject *hand = NULL, *stocks = NULL, *block = NULL, *pblock = NULL, *tail = NULL;
    int r = ERROR;
    int eq[N_NAMED];
    if (old != Py_None) {
        PyObject *was = PyTuple_GET_ITEM(old, 0);
        for (int j = 0; j < C_CULTURE; j++) { /* the fields the parts depend on */
            eq[j] = same(PyTuple_GET_ITEM(was, at[j]), PyTuple_GET_ITEM(snap, at[j]));
            if (eq[j] < 0) {
                goto done;
            }
        }
        if (eq[C_CUBES]) {
            stocks = Py_NewRef(PyTuple_GET_ITEM(old, 10));
        }
        if (eq[C_GOV] && eq[C_LEADER] && eq[C_SPECIAL] && eq[C_WONDERS] && eq[C_COLONIES] &&
            eq[C_PSIDE]) {
            f = Py_NewRef(PyTuple_GET_ITEM(old, 3));
            fvals = Py_NewRef(PyTuple_GET_ITEM(old, 7));
            int same_workers = eq[C_WORKERS];
            if (same_workers && eq[C_RUINS] && eq[C_HOMER] && eq[C_TACTIC] && eq[C_XCULTURE]) {
                rates = Py_NewRef(PyTuple_GET_ITEM(old, 4));
            }
            if (eq[C_DEVELOPED]) {
                if (!same_workers) {
                    PyObject *bcost = PyObject_GetAttr(f, p->s_bcost);
                    if (bcost == NULL) {
                        goto done;
                    }
                    if (bcost != Py_None) {
                        played = Py_NewRef(PyTuple_GET_ITEM(old, 5));
                    }
                    Py_DECREF(bcost);
                }
                else {
                    played = Py_NewRef(PyTuple_GET_ITEM(old, 5));
                    workers = Py_NewRef(PyTuple_GET_ITEM(old, 8));
                }
            }
            if (eq[C_HAND]) {
                int develop = 0;
                if (!same_workers) {
                    PyObject *mods = PyObject_GetAttr(f, p->s_mods);
                    if (mods == NULL) {
                        goto done;
                    }
                    develop = PySequence_Contains(mods, p->s_develop);
                    Py_DECREF(mods);
                    if (develop < 0) {
                        goto done;
                    }
                }
                if (!develop) {
                    hand = Py_NewRef(PyTuple_GET_ITEM(old, 6));
                }
            }
        }
    }
    /* the parts to rebuild: a ValueError (an entry past 255) takes the reference path */
    r = OK;
    if (f == NULL) {
        PyObject *both = tuple_of(call(p->s_effects, enc, civ, NULL, NULL), 2, "_effects()");
        if ((r = called(both, &both)) != OK) {
            goto done;
        }
        f = Py_NewRef(PyTuple_GET_ITEM(both, 0));
        fvals = Py_NewRef(PyTuple_GET_ITEM(both, 1));
        Py_DECREF(both);
    }
    if ((rates == NULL &&
         (r = called(tuple_of(call(p->s_rates, enc, civ, NULL, NULL), 6, "_rates()"), &rates))
             != OK) ||
        (played == NULL &&
         (r = called(tuple_of(call(p->s_played_of, enc, civ, f, snap), 2, "_played_of()"),
                     &played)) != OK) ||
        (workers == NULL &&
         (r = called(call(p->s_workers_of, enc, civ, snap, NULL), &workers)) != OK) ||
        (hand == NULL &&
         (r = called(tuple_of(call(p->s_hand_of, enc, civ, f, snap), 2, "_hand_of()"), &hand))
             != OK) ||
        (stocks == NULL &&
         (r = called(tuple_of(call(p->s_stocks, enc, civ, NULL, NULL), 2, "_stocks()"), &stocks))
             != OK)) {
        goto done;
    }
    if (!PyTuple_CheckExact(fvals) || PyTuple_GET_SIZE(fvals) != 5) {
        r = REFERENCE;
        goto done;
    }
    /* the numbers */
    long rv[6], fv[5], sv[2], c[N_NAMED];
    if (longs(rates, rv, 6) != OK || longs(fvals, fv, 5) != OK || longs(stocks, sv, 2) != OK) {
        r = REFERENCE;
        goto done;
    }
    static const int INTS[] = {C_CULTURE, C_SCIENCE, C_YELLOW, C_BLUE, C_POOL, C_WIP_STAGES,
                               C_CA, C_MA, C_TEMP_MA, C_TACTIC_OWN, C_WIP, C_TACTIC, C_FLAGS};
    for (size_t j = 0; j < sizeof(INTS) / sizeof(INTS[0]); j++) {
        if (as_long(PyTuple_GET_ITEM(snap, at[INTS[j]]), &c[INTS[j]]) != OK) {
            r = REFERENCE;
            goto done;
        }
    }
    long yellow = c[C_YELLOW], blue = c[C_BLUE];
    PyObject *cubes = PyTuple_GET_ITEM(snap, at[C_CUBES]);
    PyObject *mhand = PyTuple_GET_ITEM(snap, at[C_MHAND]);
    if (yellow < 0 || yellow >= BANK || blue < 0 || blue >= BANK || !PyList_CheckExact(cubes) ||
        PyList_GET_SIZE(cubes) != 8 || !PyList_CheckExact(mhand)) {
        r = REFERENCE;
        goto done;
    }
    long happy = rv[3], required = p->required[yellow];
    long head[HEAD] = {
        c[C_CULTURE], c[C_SCIENCE], rv[0], rv[1], rv[2], happy,
        required > happy ? required - happy : 0, yellow, blue, c[C_POOL], sv[0], sv[1], rv[4],
        rv[5], c[C_WIP_STAGES], c[C_CA], c[C_MA], c[C_TEMP_MA], fv[0], fv[1],
        (long)PyList_GET_SIZE(mhand), p->pop_cost[yellow], p->consumption[yellow],
        p->corruption[blue], fv[2], fv[3], fv[4], c[C_TACTIC_OWN] ? 1 : 0,
    };
    for (Py_ssize_t j = 0; j < 8; j++) {
        if (as_long(PyList_GET_ITEM(cubes, j), &head[HEAD - 8 + j]) != OK) {
            r = REFERENCE;
            goto done;
        }
    }
    /* the civ block */
    block = PyBytes_FromStringAndSize(NULL, p->civ_size);
    if (block == NULL) {
        r = ERROR;
        goto done;
    }
    unsigned char *w = (unsigned char *)PyBytes_AS_STRING(block);
    for (int j = 0; j < HEAD; j++) {
        *w++ = u8(head[j]);
    }
    if ((r = append(PyTuple_GET_ITEM(played, 0), p->in_play_size, &w)) != OK ||
        (r = append(workers, p->techs_size, &w)) != OK ||
        (r = one_hot(p, &p->wonders, PyTuple_GET_ITEM(snap, at[C_WIP]), &w)) != OK ||
        (r = append(PyTuple_GET_ITEM(hand, 0), p->civil.size, &w)) != OK ||
        (r = one_hot(p, &p->tactics, PyTuple_GET_ITEM(snap, at[C_TACTIC]), &w)) != OK ||
        (r = append(PyTuple_GET_ITEM(played, 1), p->techs_size, &w)) != OK ||
        (r = append(PyTuple_GET_ITEM(hand, 1), p->techs_size, &w)) != OK) {
        goto done;
    }
    /* the start of its politics block: resigned, face-down events, colonies, ruins */
    PyObject *secret = PyTuple_GET_ITEM(snap, at[C_SECRET]);
    PyObject *colonies = PyTuple_GET_ITEM(snap, at[C_COLONIES]);
    PyObject *ruins = PyTuple_GET_ITEM(snap, at[C_RUINS]);
    int resigned = (c[C_FLAGS] & p->f_resigned) != 0;
    if (!PyList_CheckExact(secret) || !PyList_CheckExact(colonies) || !PyList_CheckExact(ruins)) {
        r = REFERENCE;
        goto done;
    }
    tail = PyBytes_FromStringAndSize(NULL, p->pciv_own + p->no_treaties);
    if (tail == NULL) {
        r = ERROR;
        goto done;
    }
    unsigned char *pol = (unsigned char *)PyBytes_AS_STRING(tail);
    memset(pol, 0, (size_t)(p->pciv_own + p->no_treaties));
    if (resigned || PyList_GET_SIZE(secret) || PyList_GET_SIZE(colonies) ||
        PyList_GET_SIZE(ruins)) {
        pol[0] = resigned;
        pol[1] = u8((long)PyList_GET_SIZE(secret));
        PyObject *lists[] = {colonies, ruins};
        const Block *blocks[] = {&p->territories, &p->wonders};
        Py_ssize_t starts[] = {2, 2 + p->territories.size};
        for (int j = 0; j < 2; j++) {
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(lists[j]); i++) {
                Py_ssize_t k;
                if ((r = card_pos(p, blocks[j], PyList_GET_ITEM(lists[j], i), &k)) != OK) {
                    goto done;
                }
                unsigned char *e = pol + starts[j] + k;
                if (*e < 255) {
                    *e += 1;
                }
            }
        }
        pblock = PyBytes_FromStringAndSize((const char *)pol, p->pciv_own);
        if (pblock == NULL) {
            r = ERROR;
            goto done;
        }
    }
    else {
        pblock = Py_NewRef(p->no_politics);
    }
    *out = PyTuple_Pack(11, snap, block, pblock, f, rates, played, hand, fvals, workers, tail,
                        stocks);
    r = *out == NULL ? ERROR : OK;
done:
    Py_DECREF(snap);
    Py_XDECREF(f);
    Py_XDECREF(fvals);
    Py_XDECREF(rates);
    Py_XDECREF(played);
    Py_XDECREF(workers);
    Py_XDECREF(hand);
    Py_XDECREF(stocks);
    Py_XDECREF(block);
    Py_XDECREF(pblock);
    Py_XDECREF(tail);
    return r;
}

/* civilization o's entry in the encoder's memory (a new reference), rebuilt (build_entry)
 * when a field differs from the entry's snapshot */
static int
civ_entry(Plan *p, PyObject *enc, PyObject *last, PyObject *civ, Py_ssize_t o, PyObject **out)
{
    if (!Py_IS_TYPE(civ, p->civ_type)) {
        return REFERENCE;
    }
    PyObject *kept = PyList_GET_ITEM(last, o);
    if (kept != Py_None) {
        if (!PyTuple_CheckExact(kept) || PyTuple_GET_SIZE(kept) != 11) {
            return REFERENCE;
        }
        PyObject *snap = PyTuple_GET_ITEM(kept, 0);
        if (!PyTuple_CheckExact(snap) || PyTuple_GET_SIZE(snap) != p->n_civ_fields) {
            return REFERENCE;
        }
        Py_ssize_t i = 0;
        for (; i < p->n_civ_fields; i++) {
            PyObject *x = field(civ, p->civ_off[i]);
            if (x == NULL) {
                return REFERENCE;
            }
            int eq = same(x, PyTuple_GET_ITEM(snap, i));
            if (eq < 0) {
                return ERROR;
            }
            if (!eq) {
                break;
            }
        }
        if (i == p->n_civ_fields) {
            Py_INCREF(kept);
            *out = kept;
            return OK;
        }
    }
    PyObject *entry;
    Py_INCREF(kept); /* held across the encoder's methods */
    int r = build_entry(p, enc, civ, kept, &entry);
    Py_DECREF(kept);
    if (r != OK) {
        return r;
    }
    Py_INCREF(entry);
    if (PyList_SetItem(last, o, entry) < 0) { /* steals the extra reference */
        Py_DECREF(entry);
        return ERROR;
    }
    *out = entry;
    return OK;
}

/* the row costs kept for seat when their key still holds: the same effects, as many wonders
 * and face-down wonders, the same replaced leader, no card that changes take costs (then the
 * key holds no buildings); NULL otherwise */
static PyObject *
kept_costs(Plan *p, PyObject *kept, PyObject *civ, PyObject *f)
{
    if (!PyTuple_CheckExact(kept) || PyTuple_GET_SIZE(kept) != 3) {
        return NULL;
    }
    PyObject *key = PyTuple_GET_ITEM(kept, 0);
    PyObject *wonders = field(civ, p->civ_off[p->at[C_WONDERS]]);
    PyObject *ruins = field(civ, p->civ_off[p->at[C_RUINS]]);
    PyObject *replaced = field(civ, p->civ_off[p->at[C_REPLACED_LEADER]]);
    long count, replaced_leader, now;
    if (PyTuple_CheckExact(key) && PyTuple_GET_SIZE(key) == 4 &&
        PyTuple_GET_ITEM(key, 3) == Py_None && PyTuple_GET_ITEM(key, 0) == f &&
        wonders != NULL && PyList_CheckExact(wonders) && ruins != NULL &&
        PyList_CheckExact(ruins) && as_long(PyTuple_GET_ITEM(key, 1), &count) == OK &&
        count == PyList_GET_SIZE(wonders) + PyList_GET_SIZE(ruins) &&
        as_long(PyTuple_GET_ITEM(key, 2), &replaced_leader) == OK &&
        as_long(replaced, &now) == OK && now == replaced_leader &&
        PyList_CheckExact(PyTuple_GET_ITEM(kept, 1)) &&
        PyBytes_CheckExact(PyTuple_GET_ITEM(kept, 2))) {
        return key;
    }
    return NULL;
}

/* what seat pays for each row slot (a new reference). While the key of what the encoder's
 * _costs kept for seat holds, the kept costs, with the slots whose card changed priced again
 * as _costs prices them: an empty slot 0, a card other than a wonder its slot's printed price
 * (no card in play changes take costs, or the key would differ), a wonder by the rules'
 * civil.take_cost; the result is kept for seat as _costs keeps it. Otherwise _costs. */
static int
row_costs(Plan *p, PyObject *enc, PyObject *s, Py_ssize_t seat, PyObject *row, PyObject *civ,
          PyObject *f, PyObject **out)
{
    PyObject *all = PyObject_GetAttr(enc, p->s_row_costs);
    if (all == NULL) {
        return ERROR;
    }
    int r = OK;
    PyObject *kept = PyList_CheckExact(all) && PyList_GET_SIZE(all) == p->players
                         ? PyList_GET_ITEM(all, seat)
                         : NULL;
    PyObject *key = kept != NULL ? kept_costs(p, kept, civ, f) : NULL;
    PyObject *was = key != NULL ? PyTuple_GET_ITEM(kept, 1) : NULL;
    PyObject *costs = key != NULL ? PyTuple_GET_ITEM(kept, 2) : NULL;
    if (key != NULL && PyList_GET_SIZE(was) == p->row_slots &&
        PyBytes_GET_SIZE(costs) == p->row_slots) {
        int eq = same(was, row);
        if (eq < 0) {
            Py_DECREF(all);
            return ERROR;
        }
        if (eq) {
            *out = Py_NewRef(costs);
            Py_DECREF(all);
            return OK;
        }
        /* price the slots that changed */
        Py_INCREF(kept); /* held while take_cost runs */
        PyObject *fresh = PyBytes_FromStringAndSize(PyBytes_AS_STRING(costs), p->row_slots);
        PyObject *copy = PyList_GetSlice(row, 0, p->row_slots);
        PyObject *entry = NULL;
        r = fresh == NULL || copy == NULL ? ERROR : OK;
        unsigned char *c = r == OK ? (unsigned char *)PyBytes_AS_STRING(fresh) : NULL;
        for (Py_ssize_t slot = 0; slot < p->row_slots && r == OK; slot++) {
            PyObject *item = PyList_GET_ITEM(copy, slot);
            if (item == PyList_GET_ITEM(was, slot)) {
                continue;
            }
            long card, cost;
            if (as_long(item, &card) != OK || card >= p->n_cards) {
                r = REFERENCE;
            }
            else if (card < 0) {
                c[slot] = 0;
            }
            else if (!p->wonder[card]) {
                c[slot] = p->plain_take[slot];
            }
            else {
                PyObject *index = PyLong_FromSsize_t(slot), *price;
                if (index == NULL) {
                    r = ERROR;
                    break;
                }
                r = called(PyObject_CallFunctionObjArgs(p->take_cost, s, civ, index, f, NULL),
                           &price);
                Py_DECREF(index);
                if (r == OK) {
                    /* past 255, which bytes refuse on the Python path: the reference path */
                    r = as_long(price, &cost) != OK || cost < 0 || cost > 255 ? REFERENCE : OK;
                    Py_DECREF(price);
                    if (r == OK) {
                        c[slot] = (unsigned char)cost;
                    }
                }
            }
        }
        if (r == OK) {
            entry = PyTuple_Pack(3, key, copy, fresh);
            r = entry == NULL ? ERROR : OK;
        }
        if (r == OK) {
            Py_INCREF(entry);
            if (PyList_SetItem(all, seat, entry) < 0) { /* steals one reference */
                r = ERROR;
            }
            Py_DECREF(entry);
        }
        if (r == OK) {
            *out = Py_NewRef(fresh);
        }
        Py_XDECREF(fresh);
        Py_XDECREF(copy);
        Py_DECREF(kept);
        Py_DECREF(all);
        return r;
    }
    Py_DECREF(all);
    PyObject *index = PyLong_FromSsize_t(seat);
    if (index == NULL) {
        return ERROR;
    }
    PyObject *args[] = {enc, s, index, f};
    r = called(
        PyObject_VectorcallMethod(p->s_costs, args, 4 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL),
        out);
    Py_DECREF(index);
    return r;
}

static int
encode(Plan *p, PyObject *enc, PyObject *s, Py_ssize_t seat, float *v)
{
    const Py_ssize_t n = p->players;
    const Py_ssize_t *so = p->state_off;
    long x;
    /* turn and piles */
    long age, first, current, last_round, over, round_, phase;
    if (as_long(field(s, so[S_PLAYERS]), &x) != OK || x != n ||
        as_long(field(s, so[S_ROUND]), &round_) != OK ||
        as_long(field(s, so[S_AGE]), &age) != OK || age < 0 || age >= N_AGE_HOT ||
        as_long(field(s, so[S_LAST_ROUND]), &last_round) != OK ||
        as_long(field(s, so[S_OVER]), &over) != OK ||
        as_long(field(s, so[S_FIRST]), &first) != OK ||
        as_long(field(s, so[S_CURRENT]), &current) != OK ||
        as_long(field(s, so[S_PHASE]), &phase) != OK) {
        return REFERENCE;
    }
    v[0] = clip(round_);
    v[1 + age] = 1.0f;
    if (last_round >= 0) {
        v[6] = 1.0f;
        v[7] = clip(last_round);
    }
    v[8] = clip(over);
    v[9 + ((first - seat) % n + n) % n] = 1.0f;
    v[9 + n + ((current - seat) % n + n) % n] = 1.0f;
    Py_ssize_t i = 9 + 2 * n;
    for (int pile = S_CIVIL_DECKS; pile <= S_MIL_DISCARDS; pile++) {
        LIST_OR_REFERENCE(decks, s, so[pile]);
        if (PyList_GET_SIZE(decks) != 4) {
            return REFERENCE;
        }
        for (Py_ssize_t a = 0; a < 4; a++) {
            PyObject *deck = PyList_GET_ITEM(decks, a);
            if (!PyList_CheckExact(deck)) {
                return REFERENCE;
            }
            v[i++] = clip((long)PyList_GET_SIZE(deck));
        }
    }
    LIST_OR_REFERENCE(events, s, so[S_EVENTS]);
    v[i++] = clip((long)PyList_GET_SIZE(events));
    /* the civilizations' entries, self first (kept while a civilization is unchanged) */
    LIST_OR_REFERENCE(civs, s, so[S_CIVS]);
    PyObject *last = PyObject_GetAttr(enc, p->s_last);
    if (last == NULL) {
        return ERROR;
    }
    if (!PyList_CheckExact(last) || PyList_GET_SIZE(last) != n || PyList_GET_SIZE(civs) != n) {
        Py_DECREF(last);
        return REFERENCE;
    }
    PyObject *entries[MAX_SEATS] = {NULL};
    int r = OK;
    for (Py_ssize_t k = 0; k < n && r == OK; k++) {
        Py_ssize_t o = (seat + k) % n;
        r = civ_entry(p, enc, last, PyList_GET_ITEM(civs, o), o, &entries[k]);
    }
    Py_DECREF(last);
    if (r != OK) {
        goto done;
    }
    /* the row: each slot's one-hot block, then what I pay for each slot */
    {
        LIST_OR_DONE(row, s, so[S_ROW]);
        if (PyList_GET_SIZE(row) != p->row_slots) {
            r = REFERENCE;
            goto done;
        }
        for (Py_ssize_t slot = 0; slot < p->row_slots; slot++) {
            PyObject *item = PyList_GET_ITEM(row, slot);
            if (as_long(item, &x) != OK) {
                r = REFERENCE;
                goto done;
            }
            if (x == -1) {
                continue;
            }
            Py_ssize_t at;
            if ((r = card_pos(p, &p->civil, item, &at)) != OK) {
                goto done;
            }
            v[p->row_at + slot * p->civil.size + at] = 1.0f;
        }
        PyObject *costs;
        if ((r = row_costs(p, enc, s, seat, row, PyList_GET_ITEM(civs, seat),
                           PyTuple_GET_ITEM(entries[0], 3), &costs)) != OK) {
            goto done;
        }
        r = copy_bytes(costs, p->row_slots, v + p->row_at + p->row_slots * p->civil.size);
        Py_DECREF(costs);
        if (r != OK) {
            goto done;
        }
    }
    /* the common tactics */
    {
        LIST_OR_DONE(common, s, so[S_COMMON]);
        if ((r = counts(p, &p->tactics, common, v + p->pending_at - p->tactics.size)) != OK) {
            goto done;
        }
    }
    /* the follow-up decision */
    LIST_OR_DONE(pending, s, so[S_PENDING]);
    Py_ssize_t plen = PyList_GET_SIZE(pending);
    long kind, p1 = -1, p2 = -1;
    if (plen < 1 || as_long(PyList_GET_ITEM(pending, 0), &kind) != OK || kind < 0 ||
        (plen > 1 && as_long(PyList_GET_ITEM(pending, 1), &p1) != OK) ||
        (plen > 2 && as_long(PyList_GET_ITEM(pending, 2), &p2) != OK)) {
        r = REFERENCE;
        goto done;
    }
    if (kind < N_PENDING) {
        v[p->pending_at + kind] = 1.0f;
        if (kind == p->p_discard && plen > 1) {
            v[p->pending_at + N_PENDING + p->n_cards] = clip(p1);
        }
    }
    if (kind < 64 && p->card_kind[kind] && plen > 1 && p1 >= 0) {
        long card = kind == p->p_option ? p2 : p1;
        if (plen < (kind == p->p_option ? 3 : 2) || card < -p->n_cards || card >= p->n_cards) {
            r = REFERENCE;
            goto done;
        }
        if (card < 0) {
            card += p->n_cards; /* a Python index */
        }
        v[p->pending_at + N_PENDING + p->card_idx[card]] = 1.0f;
    }
    /* the civilizations' blocks */
    for (Py_ssize_t k = 0; k < n; k++) {
        r = copy_bytes(PyTuple_GET_ITEM(entries[k], 1), p->civ_size,
                       v + p->civ_at + k * p->civ_size);
        if (r != OK) {
            goto done;
        }
    }
    /* my military hand */
    PyObject *me = PyList_GET_ITEM(civs, seat);
    {
        PyObject *mhand = field(me, p->civ_off[p->at[C_MHAND]]);
        if (mhand == NULL || !PyList_CheckExact(mhand)) {
            r = REFERENCE;
            goto done;
        }
        if ((r = counts(p, &p->military, mhand, v + p->mhand_at)) != OK) {
            goto done;
        }
    }
    /* the politics block */
    {
        Py_ssize_t i = p->pol_at;
        int politics = phase != p->phase_action;
        v[i] = politics ? 1.0f : 0.0f;
        if (!over) {
            PyObject *d = PyObject_CallMethodNoArgs(s, p->s_decider);
            if (d == NULL) {
                r = ERROR;
                goto done;
            }
            long decider;
            r = as_long(d, &decider);
            Py_DECREF(d);
            if (r != OK) {
                goto done;
            }
            v[i + 1 + ((decider - seat) % n + n) % n] = 1.0f;
        }
        LIST_OR_DONE(future, s, so[S_FUTURE]);
        v[i + 1 + n] = clip((long)PyList_GET_SIZE(future));
        i += 2 + n;
        const Py_ssize_t ce = p->events.size;
        LIST_OR_DONE(past, s, so[S_PAST]);
        LIST_OR_DONE(faceup, s, so[S_FACEUP]);
        if ((r = counts(p, &p->events, past, v + i)) != OK ||
            (r = counts(p, &p->events, faceup, v + i + ce)) != OK) {
            goto done;
        }
        if (age >= 2) { /* my own Age III events (TTA-15.1) */
            PyObject *secret = field(me, p->civ_off[p->at[C_SECRET]]);
            if (secret == NULL || !PyList_CheckExact(secret)) {
                r = REFERENCE;
                goto done;
            }
            if ((r = counts(p, &p->events, secret, v + i + 2 * ce)) != OK) {
                goto done;
            }
        }
        if (politics && seat == current) { /* Joan of Arc (TTA-6.1) */
            PyObject *index = PyLong_FromSsize_t(seat);
            if (index == NULL) {
                r = ERROR;
                goto done;
            }
            PyObject *peek = PyObject_CallFunctionObjArgs(p->peeks, s, index, NULL);
            Py_DECREF(index);
            if (peek == NULL) {
                r = ERROR;
                goto done;
            }
            int yes = PyObject_IsTrue(peek);
            Py_DECREF(peek);
            if (yes < 0) {
                r = ERROR;
                goto done;
            }
            if (yes) {
                Py_ssize_t ne = PyList_GET_SIZE(events), at;
                if (ne == 0) {
                    PyErr_SetString(PyExc_IndexError, "no current event to peek at");
                    r = ERROR;
                    goto done;
                }
                if ((r = card_pos(p, &p->events, PyList_GET_ITEM(events, ne - 1), &at)) != OK) {
                    goto done;
                }
                v[i + 3 * ce + at] = 1.0f;
            }
        }
        i += 4 * ce;
        if (kind >= N_PENDING) { /* a decision of the military part */
            PyObject *index = PyLong_FromSsize_t(seat);
            PyObject *pkind = PyLong_FromLong(kind);
            if (index == NULL || pkind == NULL) {
                Py_XDECREF(index);
                Py_XDECREF(pkind);
                r = ERROR;
                goto done;
            }
            PyObject *args[] = {enc, s, index, pkind};
            PyObject *block;
            r = called(PyObject_VectorcallMethod(p->s_pending2, args,
                                                 4 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL),
                       &block);
            Py_DECREF(index);
            Py_DECREF(pkind);
            if (r != OK) {
                goto done;
            }
            r = copy_bytes(block, p->pciv_at - i, v + i);
            Py_DECREF(block);
            if (r != OK) {
                goto done;
            }
        }
        /* per civilization: its own part, then the pacts it is party to and its wars */
        for (Py_ssize_t k = 0; k < n; k++) {
            r = copy_bytes(PyTuple_GET_ITEM(entries[k], 2), p->pciv_own,
                           v + p->pciv_at + k * p->pciv_size);
            if (r != OK) {
                goto done;
            }
        }
        LIST_OR_DONE(pacts, s, so[S_PACTS]);
        LIST_OR_DONE(wars, s, so[S_WARS]);
        float *tails = v + p->pciv_at + p->pciv_own;
        Py_ssize_t np_ = PyList_GET_SIZE(pacts), nw = PyList_GET_SIZE(wars);
        if (np_ % 4 || nw % 3) {
            r = REFERENCE;
            goto done;
        }
        for (Py_ssize_t j = 0; j < np_; j += 4) {
            Py_ssize_t at;
            long a, b;
            if ((r = card_pos(p, &p->pacts, PyList_GET_ITEM(pacts, j), &at)) != OK) {
                goto done;
            }
            if (as_long(PyList_GET_ITEM(pacts, j + 2), &a) != OK ||
                as_long(PyList_GET_ITEM(pacts, j + 3), &b) != OK) {
                r = REFERENCE;
                goto done;
            }
            tails[(((a - seat) % n + n) % n) * p->pciv_size + at] = 1.0f;
            tails[(((b - seat) % n + n) % n) * p->pciv_size + at] = 2.0f;
        }
        for (Py_ssize_t j = 0; j < nw; j += 3) {
            long from, to;
            if (as_long(PyList_GET_ITEM(wars, j + 1), &from) != OK ||
                as_long(PyList_GET_ITEM(wars, j + 2), &to) != OK) {
                r = REFERENCE;
                goto done;
            }
            add_one(tails + (((from - seat) % n + n) % n) * p->pciv_size + p->pacts.size +
                    ((to - seat) % n + n) % n);
        }
    }
done:
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_XDECREF(entries[k]);
    }
    return r;
}

PyDoc_STRVAR(Plan_encode_doc,
"encode(encoder, state, seat, out) -> bool\n\n"
"Write seat's observation vector into out (a writable float32 buffer of the encoder's size).\n"
"False: out is unspecified and the caller takes the reference path.");

static PyObject *
Plan_encode(Plan *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "encode(encoder, state, seat, out)");
        return NULL;
    }
    if (self->state_type == NULL || self->no_politics == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the Plan was not set up");
        return NULL;
    }
    PyObject *enc = args[0], *s = args[1];
    Py_ssize_t seat = PyLong_AsSsize_t(args[2]);
    if (seat == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (seat < 0 || seat >= self->players) {
        PyErr_Format(PyExc_ValueError, "no seat %zd in a %zd-player game", seat, self->players);
        return NULL;
    }
    if (!Py_IS_TYPE(s, self->state_type)) {
        Py_RETURN_FALSE;
    }
    Py_buffer buf;
    if (PyObject_GetBuffer(args[3], &buf, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        return NULL;
    }
    if (buf.itemsize != 4 || buf.format == NULL || strcmp(buf.format, "f") != 0 ||
        buf.len != self->size * 4) {
        PyBuffer_Release(&buf);
        PyErr_Format(PyExc_ValueError, "out must be a float32 buffer of %zd entries", self->size);
        return NULL;
    }
    float *v = (float *)buf.buf;
    memset(v, 0, (size_t)buf.len);
    int r = encode(self, enc, s, seat, v);
    PyBuffer_Release(&buf);
    if (r == ERROR) {
        return NULL;
    }
    return PyBool_FromLong(r == OK);
}

static PyMethodDef Plan_methods[] = {
    {"encode", (PyCFunction)(void (*)(void))Plan_encode, METH_FASTCALL, Plan_encode_doc},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject PlanType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "civtable.rl.encoders._tta_fast.Plan",
    .tp_doc = PyDoc_STR("The vector layout and tables of one Through the Ages encoder."),
    .tp_basicsize = sizeof(Plan),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Plan_init,
    .tp_dealloc = (destructor)Plan_dealloc,
    .tp_methods = Plan_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "civtable.rl.encoders._tta_fast",
    .m_doc = PyDoc_STR("The Through the Ages observation vector assembled in C (optional)."),
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__tta_fast(void)
{
    if (PyType_Ready(&PlanType) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) {
        return NULL;
    }
    Py_INCREF(&PlanType);
    if (PyModule_AddObject(m, "Plan", (PyObject *)&PlanType) < 0) {
        Py_DECREF(&PlanType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
