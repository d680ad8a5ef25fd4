#include "rederive.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest.h"

#define WORKERS_MAX 8
#define AHEAD 4 /* reports read ahead of the one stored, per worker: memory stays bounded */

enum slot_state { SLOT_EMPTY, SLOT_READ, SLOT_TAKEN, SLOT_READY };

struct slot {
    enum slot_state state;
    unsigned char *stored; /* the deflated bytes, as read */
    size_t stored_length, length;
    char key[65];
    struct ingest_prepared *prepared; /* NULL when it could not be (the message says why) */
    char message[512];
};

struct pipeline {
    struct slot *slots; /* a ring of `window` */
    size_t window, count, read, next_to_take;
    bool stop;
    pthread_mutex_t lock;
    pthread_cond_t work, ready;
};

static void derive(struct slot *s)
{
    char *body = ingest_inflate_body(s->stored, s->stored_length, s->length);
    s->prepared = body ? ingest_prepare_stored(body, s->length, s->key, s->message, sizeof(s->message)) : NULL;
    if (body == NULL)
        snprintf(s->message, sizeof(s->message), "its stored bytes cannot be inflated");
    free(body);
    free(s->stored);
    s->stored = NULL;
}

static void *worker(void *argument)
{
    struct pipeline *p = argument;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->stop && p->next_to_take == p->read)
            pthread_cond_wait(&p->work, &p->lock);
        if (p->next_to_take == p->read) /* stopped and nothing left */
            break;
        struct slot *s = &p->slots[p->next_to_take++ % p->window];
        s->state = SLOT_TAKEN;
        pthread_mutex_unlock(&p->lock);
        derive(s);
        pthread_mutex_lock(&p->lock);
        s->state = SLOT_READY;
        pthread_cond_broadcast(&p->ready);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Reads report `row` of `reports` into its slot; false when the database failed. */
static bool read_one(struct db *db, struct db_result *reports, size_t row, struct slot *s)
{
    const struct db_param id = DB_INT(db_result_int(reports, row, 0));
    struct db_result *r = db_query(db, "SELECT body, body_bytes FROM reports WHERE id = ?", &id, 1);
    if (r == NULL || db_result_rows(r) != 1) {
        db_result_free(r);
        return false;
    }
    const void *bytes = db_result_blob(r, 0, 0, &s->stored_length);
    s->stored = malloc(s->stored_length + 1);
    if (s->stored != NULL)
        memcpy(s->stored, bytes, s->stored_length);
    s->length = (size_t)db_result_int(r, 0, 1);
    snprintf(s->key, sizeof(s->key), "%s", db_result_text(reports, row, 2));
    s->prepared = NULL;
    s->message[0] = '\0';
    db_result_free(r);
    return s->stored != NULL;
}

bool rederive_all(struct db *db, char *message, size_t size)
{
    static const char *const derived[] = {
        "DELETE FROM current_items",    "DELETE FROM item_counts",     "DELETE FROM first_seen",
        "DELETE FROM driver_changes",   "DELETE FROM driver_tests",    "DELETE FROM drivers",
        "DELETE FROM driver_machines",  "DELETE FROM machine_devices", "DELETE FROM machines",
        "DELETE FROM report_artifacts", "DELETE FROM devices",         "DELETE FROM entries",
        "DELETE FROM driver_runs",
    };
    for (size_t i = 0; i < sizeof(derived) / sizeof(derived[0]); ++i)
        if (!db_exec(db, derived[i], NULL, 0)) {
            snprintf(message, size, "%s", db_error(db));
            return false;
        }
    struct db_result *reports = db_query(db, "SELECT id, uploaded, idempotency_key FROM reports ORDER BY id", NULL, 0);
    if (reports == NULL) {
        snprintf(message, size, "%s", db_error(db));
        return false;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t workers = cpus < 1 ? 1 : cpus > WORKERS_MAX ? WORKERS_MAX : (size_t)cpus;
    struct pipeline p = {.count = db_result_rows(reports), .window = workers * AHEAD};
    p.slots = calloc(p.window, sizeof(*p.slots));
    pthread_t threads[WORKERS_MAX];
    size_t started = 0;
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.work, NULL);
    pthread_cond_init(&p.ready, NULL);
    for (; p.slots && started < workers; ++started)
        if (pthread_create(&threads[started], NULL, worker, &p) != 0)
            break;
    bool ok = p.slots != NULL;
    if (!ok)
        snprintf(message, size, "out of memory");
    for (size_t i = 0; ok && i < p.count; ++i) {
        /* read ahead while there is room: the workers parse what is read */
        pthread_mutex_lock(&p.lock);
        size_t read = p.read;
        pthread_mutex_unlock(&p.lock);
        while (read < p.count && read < i + p.window) {
            struct slot *next = &p.slots[read % p.window];
            if (!read_one(db, reports, read, next)) {
                snprintf(message, size, "report %lld: its stored bytes cannot be read: %s",
                         (long long)db_result_int(reports, read, 0), db_error(db));
                ok = false;
                break;
            }
            pthread_mutex_lock(&p.lock);
            next->state = SLOT_READ;
            p.read = ++read;
            pthread_cond_signal(&p.work);
            pthread_mutex_unlock(&p.lock);
        }
        if (!ok)
            break;
        struct slot *s = &p.slots[i % p.window];
        if (started == 0) { /* no thread could start: derive here */
            p.next_to_take = i + 1;
            derive(s);
            s->state = SLOT_READY;
        }
        pthread_mutex_lock(&p.lock);
        while (s->state != SLOT_READY)
            pthread_cond_wait(&p.ready, &p.lock);
        pthread_mutex_unlock(&p.lock);
        int64_t id = db_result_int(reports, i, 0);
        if (s->prepared == NULL) {
            snprintf(message, size, "report %lld: %s", (long long)id, s->message);
            ok = false;
        } else {
            message[0] = '\0';
            ok = ingest_store_derived(db, id, s->prepared, db_result_text(reports, i, 1), message, size);
        }
        ingest_prepared_free(s->prepared);
        s->prepared = NULL;
        s->state = SLOT_EMPTY;
        if (ok && p.count >= 1000 && (i + 1) % 1000 == 0) /* a large database takes minutes: say where it is */
            fprintf(stderr, "preflight-dashboard: deriving the tables again: %zu of %zu reports\n", i + 1, p.count);
    }
    pthread_mutex_lock(&p.lock);
    p.stop = true;
    pthread_cond_broadcast(&p.work);
    pthread_mutex_unlock(&p.lock);
    for (size_t t = 0; t < started; ++t)
        pthread_join(threads[t], NULL);
    for (size_t k = 0; p.slots && k < p.window; ++k) { /* what was read or derived past a failure */
        ingest_prepared_free(p.slots[k].prepared);
        free(p.slots[k].stored);
    }
    free(p.slots);
    pthread_mutex_destroy(&p.lock);
    pthread_cond_destroy(&p.work);
    pthread_cond_destroy(&p.ready);
    db_result_free(reports);
    return ok;
}
