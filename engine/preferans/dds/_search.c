/* Double-dummy search for Preferans trick play (see engine/preferans/dds/__init__.py).
 *
 * Alpha-beta over single cards, fail-soft. A transposition table holds bounds on
 * the counted tricks still to come at every trick boundary; its key has each
 * suit's remaining cards moved to the top ranks, so positions that differ only
 * in cards already played share an entry. Touching cards of one hand (no card
 * of another hand, or of the trick in progress, between them) are searched as
 * one. Moves are ordered by what they do to the trick, then by a history table.
 *
 * Cards are bits 0-31: suit * 8 + rank - 7. Owners: players 0-2 in playing
 * order, 3 the 4-player dealer's talon card (it may win), -1 the 3-player
 * talon card (it never wins).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NOBODY (-1)
#define TT_BITS 20
#define TT_SIZE (1u << TT_BITS)

typedef struct {
    uint32_t key[4];
    uint32_t generation;
    uint8_t meta, lo, hi, left;
} Entry;

static Entry *table;
static uint32_t generation;
static uint8_t relative[256][256];

typedef struct {
    int owner, card;
} Play;

typedef struct {
    uint32_t hands[3];
    int trump, counted, maxers;
    int talon[2], ntalon, talon_pos, talon_owner, fixed;
    int history[3][32];
    long nodes, limit; /* cards tried, and how many may be (0: no limit) */
} Search;

static inline uint32_t suit_mask(int suit) { return 0xFFu << (8 * suit); }

/* The owner of the winning play (NOBODY when no play can win). */
static int winner(const Search *s, const Play *plays, int n) {
    int led = plays[0].card >> 3, best = NOBODY, best_key = -1;
    for (int i = 0; i < n; i++) {
        int suit = plays[i].card >> 3, key;
        if (plays[i].owner == NOBODY) continue;
        if (suit == s->trump) key = 16 + (plays[i].card & 7);
        else if (suit == led) key = 8 + (plays[i].card & 7);
        else continue;
        if (key > best_key) { best_key = key; best = plays[i].owner; }
    }
    return best;
}

static uint32_t legal(const Search *s, uint32_t hand, const Play *plays, int n) {
    if (n == 0) return hand;
    uint32_t follow = hand & suit_mask(plays[0].card >> 3);
    if (follow) return follow;
    if (s->trump >= 0) {
        uint32_t ruff = hand & suit_mask(s->trump);
        if (ruff) return ruff;
    }
    return hand;
}

static uint32_t talon_left(const Search *s) {
    uint32_t m = 0;
    for (int i = s->talon_pos; i < s->ntalon; i++) m |= 1u << s->talon[i];
    return m;
}

/* One card of each run of touching cards among ``legal_cards``. */
static int candidates(uint32_t legal_cards, uint32_t present, int *out) {
    int n = 0;
    for (int suit = 0; suit < 4; suit++) {
        unsigned mine = (legal_cards >> (8 * suit)) & 0xFF;
        if (!mine) continue;
        unsigned here = (present >> (8 * suit)) & 0xFF;
        int run = 0;
        for (int r = 7; r >= 0; r--) {
            if (!((here >> r) & 1)) continue;
            if ((mine >> r) & 1) {
                if (!run) out[n++] = 8 * suit + r;
                run = 1;
            } else {
                run = 0;
            }
        }
    }
    return n;
}

/* Is the trick's outcome with ``owner`` winning good for ``player``? */
static inline int good_for(const Search *s, int player, int owner) {
    int counted = owner >= 0 && ((s->counted >> owner) & 1);
    return counted == ((s->maxers >> player) & 1);
}

/* Order ``cards`` for ``player``: outcomes good for him first, then cheap or
 * dangerous cards as his aim suggests, the history table breaking ties. */
static void order_moves(const Search *s, int player, Play *plays, int n, int k, int *cards,
                        int count) {
    int score[16];
    int glad = good_for(s, player, player); /* he is happy to take tricks himself */
    /* He wants a counted player to take this trick, and one is still to play to it. */
    int feeds = 0;
    if (!glad && !((s->counted >> player) & 1))
        for (int j = k + 1; j < 3; j++)
            if ((s->counted >> ((player + j - k) % 3)) & 1) feeds = 1;
    /* An avoider (counted, not glad) throws first from a suit where the others could force
     * him to win (see quick_bounds), and leads first where another hand must go over. */
    int avoider = !glad && ((s->counted >> player) & 1), danger[4] = {0, 0, 0, 0};
    uint32_t mine = s->hands[player];
    if (avoider)
        for (int suit = 0; suit < 4; suit++) {
            unsigned m = (mine >> (8 * suit)) & 0xFF, t = 0;
            for (int p = 0; p < 3; p++)
                if (p != player) t |= (s->hands[p] >> (8 * suit)) & 0xFF;
            for (; m && t; m &= m - 1, t &= t - 1)
                if (__builtin_ctz(m) > __builtin_ctz(t)) danger[suit] = 1;
        }
    for (int i = 0; i < count; i++) {
        int c = cards[i], rank = c & 7, sc;
        if (n == 0 && avoider) {
            sc = 8 * (7 - rank);
            for (int p = 0; p < 3; p++) {
                unsigned t = (s->hands[p] >> (c & ~7)) & 0xFF;
                if (p != player && t && __builtin_ctz(t) > rank) sc += 64;
            }
        } else if (n == 0 || feeds) {
            sc = glad ? 8 * rank : 8 * (7 - rank);
        } else if (avoider && (c >> 3) != (plays[0].card >> 3)) {
            sc = 1000 + 64 * danger[c >> 3] + 8 * rank;
        } else {
            plays[n].owner = player;
            plays[n].card = c;
            int w = winner(s, plays, n + 1);
            if (good_for(s, player, w)) {
                int cheap = (w == player || glad) ? 7 - rank : rank;
                sc = 1000 + 8 * cheap;
            } else {
                sc = 8 * (glad ? 7 - rank : rank);
            }
        }
        score[i] = (sc << 12) + (s->history[player][c] > 4095 ? 4095 : s->history[player][c]);
    }
    for (int i = 1; i < count; i++) {
        int c = cards[i], sc = score[i], j = i - 1;
        while (j >= 0 && score[j] < sc) { cards[j + 1] = cards[j]; score[j + 1] = score[j]; j--; }
        cards[j + 1] = c;
        score[j + 1] = sc;
    }
}

static int trick_start(Search *s, int leader, int alpha, int beta);

/* Counted tricks from here; ``first`` is the first player of this trick's order and
 * ``k`` how many players have played to it. */
static int node(Search *s, Play *plays, int n, int first, int k, int alpha, int beta) {
    if (s->limit && ++s->nodes > s->limit) return 0; /* out of budget: the caller gives up */
    if (k == 3) {
        int w = winner(s, plays, n);
        int won = (w >= 0 && ((s->counted >> w) & 1)) ? 1 : 0;
        int fixed = s->fixed, pos = s->talon_pos, v;
        if (fixed) {
            s->fixed--;
            v = won + trick_start(s, -1, alpha - won, beta - won);
        } else {
            v = won + trick_start(s, w < 0 ? 0 : w, alpha - won, beta - won);
        }
        s->fixed = fixed;
        s->talon_pos = pos;
        return v;
    }
    int player = (first + k) % 3;
    uint32_t present = s->hands[0] | s->hands[1] | s->hands[2] | talon_left(s);
    for (int i = 0; i < n; i++) present |= 1u << plays[i].card;
    int cards[16];
    int count = candidates(legal(s, s->hands[player], plays, n), present, cards);
    order_moves(s, player, plays, n, k, cards, count);
    int maxing = (s->maxers >> player) & 1;
    int best = maxing ? -1 : 100;
    for (int i = 0; i < count; i++) {
        int c = cards[i];
        s->hands[player] ^= 1u << c;
        plays[n].owner = player;
        plays[n].card = c;
        int v = node(s, plays, n + 1, first, k + 1, alpha, beta);
        s->hands[player] ^= 1u << c;
        if (maxing) {
            if (v > best) { best = v; if (v > alpha) alpha = v; }
        } else if (v < best) {
            best = v;
            if (v < beta) beta = v;
        }
        if (alpha >= beta) {
            s->history[player][c] += 1;
            break;
        }
    }
    return best;
}

static inline uint32_t mix(uint32_t h, uint32_t x) {
    h ^= x + 0x9E3779B9u + (h << 6) + (h >> 2);
    return h;
}

/* Cheap bounds on the counted tricks when ``leader`` leads the next trick and keeps the
 * lead while he wins.
 *
 * Sure winners: a player glad to take tricks cashes the top cards he holds in each suit
 * (in a trump contract only his top trumps, unless they draw every other trump: a
 * partner void in a suit must ruff too, and would take the lead). They are counted
 * tricks if he is counted, tricks lost to the counted if not.
 *
 * A safe avoider: one player avoids tricks against the other two (misère, raspasy; no
 * trumps). While they lead, he takes none if in every suit his i-th lowest card is below the i-th lowest
 * card the others hold: following with his lowest card, and throwing his highest when
 * void, keeps that true trick after trick. */
static void quick_bounds(const Search *s, int leader, int left, int *lo, int *hi) {
    uint32_t all = s->hands[0] | s->hands[1] | s->hands[2];
    int avoider = -1;
    for (int p = 0; p < 3; p++)
        if (s->counted == (1 << p) && s->maxers == (7 & ~(1 << p))) avoider = p;
    if (avoider >= 0) {
        if (avoider == leader || s->trump >= 0) return;
        uint32_t mine = s->hands[avoider], theirs = all & ~mine;
        for (int suit = 0; suit < 4; suit++) {
            unsigned m = (mine >> (8 * suit)) & 0xFF, t = (theirs >> (8 * suit)) & 0xFF;
            while (m && t) {
                if (__builtin_ctz(m) > __builtin_ctz(t)) return;
                m &= m - 1;
                t &= t - 1;
            }
        }
        *hi = 0;
        return;
    }
    if (!good_for(s, leader, leader)) return;
    int top[4], other_trumps = 0;
    uint32_t mine = s->hands[leader];
    for (int p = 0; p < 3; p++)
        if (p != leader && s->trump >= 0) {
            int n = __builtin_popcount(s->hands[p] & suit_mask(s->trump));
            if (n > other_trumps) other_trumps = n;
        }
    for (int suit = 0; suit < 4; suit++) {
        top[suit] = 0;
        for (int r = 7; r >= 0; r--) {
            uint32_t bit = 1u << (8 * suit + r);
            if (!(all & bit)) continue;
            if (!(mine & bit)) break;
            top[suit]++;
        }
    }
    int sure = 0;
    if (s->trump >= 0 && top[s->trump] < other_trumps) {
        sure = top[s->trump];
    } else {
        for (int suit = 0; suit < 4; suit++) sure += top[suit];
    }
    if (sure > left) sure = left;
    if ((s->counted >> leader) & 1) {
        if (sure > *lo) *lo = sure;
    } else if (left - sure < *hi) {
        *hi = left - sure;
    }
}

/* A new trick, led by ``leader`` (-1: a fixed lead, by the talon card if one is left,
 * else by first hand). */
static int trick_start(Search *s, int leader, int alpha, int beta) {
    uint32_t all = s->hands[0] | s->hands[1] | s->hands[2];
    int left = __builtin_popcount(all) / 3;
    if (left == 0) return 0;
    int talon_lead = leader < 0 && s->talon_pos < s->ntalon;
    if (leader < 0) leader = 0;
    if (left == 1) { /* the last trick plays itself */
        Play plays[4];
        int n = 0;
        if (talon_lead) plays[n++] = (Play){s->talon_owner, s->talon[s->talon_pos]};
        for (int i = 0; i < 3; i++) {
            int p = (leader + i) % 3;
            plays[n++] = (Play){p, __builtin_ctz(s->hands[p])};
        }
        int w = winner(s, plays, n);
        return w >= 0 && ((s->counted >> w) & 1);
    }
    int lo = 0, hi = left;
    if (!talon_lead && s->fixed == 0) {
        quick_bounds(s, leader, left, &lo, &hi);
        if (lo == hi || lo >= beta) return lo;
        if (hi <= alpha) return hi;
    }
    uint32_t talon = talon_left(s), hands[4] = {s->hands[0], s->hands[1], s->hands[2], talon};
    uint32_t present = all | talon, key[4] = {0, 0, 0, 0};
    for (int suit = 0; suit < 4; suit++) {
        unsigned here = (present >> (8 * suit)) & 0xFF;
        for (int i = 0; i < 4; i++)
            key[i] |= (uint32_t)relative[here][(hands[i] >> (8 * suit)) & 0xFF] << (8 * suit);
    }
    uint8_t meta = (uint8_t)(leader | (s->fixed << 2) | (talon_lead << 5));
    uint32_t h = meta;
    for (int i = 0; i < 4; i++) h = mix(h, key[i]);
    /* A bucket of two: the first entry keeps the bigger positions, the second the latest. */
    Entry *bucket = &table[(h & (TT_SIZE - 1)) & ~1u], *e = NULL;
    for (int i = 0; i < 2; i++)
        if (bucket[i].generation == generation && bucket[i].meta == meta &&
            !memcmp(bucket[i].key, key, sizeof key))
            e = &bucket[i];
    if (e) {
        if (e->lo > lo) lo = e->lo;
        if (e->hi < hi) hi = e->hi;
    }
    if (lo == hi || lo >= beta) return lo;
    if (hi <= alpha) return hi;
    int a = alpha > lo ? alpha : lo, b = beta < hi ? beta : hi, v;
    Play plays[4];
    if (talon_lead) {
        plays[0].owner = s->talon_owner;
        plays[0].card = s->talon[s->talon_pos++];
        v = node(s, plays, 1, 0, 0, a, b);
        s->talon_pos--;
    } else {
        v = node(s, plays, 0, leader, 0, a, b);
    }
    if (s->limit && s->nodes > s->limit) return v; /* not a value: store nothing */
    if (v <= a) hi = v < hi ? v : hi;
    else if (v >= b) lo = v > lo ? v : lo;
    else lo = hi = v;
    if (lo > hi) lo = hi;
    if (!e) e = bucket[0].generation != generation || bucket[0].left <= left ? bucket : bucket + 1;
    memcpy(e->key, key, sizeof key);
    e->left = (uint8_t)left;
    e->generation = generation;
    e->meta = meta;
    e->lo = (uint8_t)lo;
    e->hi = (uint8_t)hi;
    return v;
}

/* -- Python interface ----------------------------------------------------------------- */

typedef struct {
    Search s;
    Play plays[4];
    int n, first, k, cap;
} Root;

static int read_root(PyObject *args, Root *r) {
    PyObject *hands, *trick, *talon;
    int leader;
    memset(r, 0, sizeof *r);
    r->cap = 10;
    if (!PyArg_ParseTuple(args, "OiiOiiOii|il", &hands, &r->s.trump, &leader, &trick,
                          &r->s.counted, &r->s.maxers, &talon, &r->s.talon_owner, &r->s.fixed,
                          &r->cap, &r->s.limit))
        return -1;
    if (!PySequence_Check(hands) || PySequence_Size(hands) != 3) {
        PyErr_SetString(PyExc_ValueError, "three hands are needed");
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        PyObject *item = PySequence_GetItem(hands, i);
        if (!item) return -1;
        r->s.hands[i] = (uint32_t)PyLong_AsUnsignedLong(item);
        Py_DECREF(item);
    }
    Py_ssize_t nt = PySequence_Size(talon), n = PySequence_Size(trick);
    if (nt < 0 || nt > 2 || n < 0 || n > 3) {
        PyErr_SetString(PyExc_ValueError, "at most two talon cards and three plays");
        return -1;
    }
    r->s.ntalon = (int)nt;
    for (Py_ssize_t i = 0; i < nt; i++) {
        PyObject *item = PySequence_GetItem(talon, i);
        if (!item) return -1;
        r->s.talon[i] = (int)PyLong_AsLong(item);
        Py_DECREF(item);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(trick, i);
        if (!item) return -1;
        if (!PyArg_ParseTuple(item, "ii", &r->plays[i].owner, &r->plays[i].card)) {
            Py_DECREF(item);
            return -1;
        }
        Py_DECREF(item);
    }
    if (PyErr_Occurred()) return -1;
    r->n = (int)n;
    if (n == 0) {
        r->first = leader;
        r->k = 0;
    } else if (r->plays[0].owner < 0 || r->plays[0].owner > 2) {
        r->first = 0; /* a talon card led: first hand plays next */
        r->k = (int)n - 1;
    } else {
        r->first = r->plays[0].owner;
        r->k = (int)n;
    }
    generation++;
    if (generation == 0) { memset(table, 0, sizeof(Entry) * TT_SIZE); generation = 1; }
    return 0;
}

/* The exact value by null-window searches (MTD(f)): each proves one bound cheaply,
 * and the table keeps what the earlier ones learnt. */
static int exact(Root *r, int n, int k, int guess) {
    int lower = 0, upper = r->cap, g = guess < r->cap ? guess : r->cap;
    while (lower < upper) {
        int beta = g > lower + 1 ? g : lower + 1;
        g = n == 0 ? trick_start(&r->s, r->first, beta - 1, beta)
                   : node(&r->s, r->plays, n, r->first, k, beta - 1, beta);
        if (g < beta) upper = g; else lower = g;
    }
    return g < r->cap ? g : r->cap;
}

static int over_limit(const Root *r) { return r->s.limit && r->s.nodes > r->s.limit; }

static PyObject *py_solve(PyObject *self, PyObject *args) {
    Root r;
    if (read_root(args, &r) < 0) return NULL;
    int v = exact(&r, r.n, r.k, 0);
    if (over_limit(&r)) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

/* {card: counted tricks} for every legal card of the player to move. */
static PyObject *py_values(PyObject *self, PyObject *args) {
    Root r;
    if (read_root(args, &r) < 0) return NULL;
    Search *s = &r.s;
    int player = (r.first + r.k) % 3;
    uint32_t moves = legal(s, s->hands[player], r.plays, r.n);
    uint32_t present = s->hands[0] | s->hands[1] | s->hands[2] | talon_left(s);
    for (int i = 0; i < r.n; i++) present |= 1u << r.plays[i].card;
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    int value_of[32], guess = 0;
    for (int suit = 0; suit < 4; suit++) {
        int run_value = -1;
        for (int rank = 7; rank >= 0; rank--) {
            int c = 8 * suit + rank;
            if (!((present >> c) & 1)) continue;
            if (!((moves >> c) & 1)) { run_value = -1; continue; }
            if (run_value < 0) {
                s->hands[player] ^= 1u << c;
                r.plays[r.n].owner = player;
                r.plays[r.n].card = c;
                run_value = guess = exact(&r, r.n + 1, r.k + 1, guess);
                s->hands[player] ^= 1u << c;
                if (over_limit(&r)) {
                    Py_DECREF(out);
                    Py_RETURN_NONE;
                }
            }
            value_of[c] = run_value;
            PyObject *key = PyLong_FromLong(c), *val = PyLong_FromLong(value_of[c]);
            if (!key || !val || PyDict_SetItem(out, key, val) < 0) {
                Py_XDECREF(key);
                Py_XDECREF(val);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(key);
            Py_DECREF(val);
        }
    }
    return out;
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS,
     "solve(hands, trump, leader, trick, counted, maxers, talon, talon_owner, fixed[, cap, limit])"
     " -> the counted tricks, or cap if they are more; None if more than limit cards were tried"},
    {"values", py_values, METH_VARARGS,
     "values(...same as solve...) -> {card: int} for every legal card of the player to move"
     " (None past the limit)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_search", NULL, -1, methods};

PyMODINIT_FUNC PyInit__search(void) {
    table = PyMem_Calloc(TT_SIZE, sizeof(Entry));
    if (!table) return PyErr_NoMemory();
    for (int here = 0; here < 256; here++)
        for (int mine = 0; mine < 256; mine++) {
            int out = 0, slot = 7;
            for (int b = 7; b >= 0; b--)
                if ((here >> b) & 1) {
                    if ((mine >> b) & 1) out |= 1 << slot;
                    slot--;
                }
            relative[here][mine] = (uint8_t)out;
        }
    return PyModule_Create(&module);
}
