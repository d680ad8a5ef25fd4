#include "deadlines.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#define WATCH_INTERVAL_NS 200000000L /* how late past its deadline a connection may be closed */
#define EVICT_AFTER_SECONDS 1.0      /* under pressure, a connection waiting this long for headers may go */

struct deadline_entry {
    int fd;
    double deadline; /* monotonic seconds; 0: none */
    bool closed;     /* shut down by the watchdog already */
    bool awaiting_headers;
    double waiting_since; /* when it began to wait for the headers it awaits */
    struct deadlines *owner;
    struct deadline_entry *previous, *next;
};

struct deadlines {
    double header_seconds, body_seconds;
    /* Guards the list and every entry. The library closes a connection's socket only after it
     * told us the connection closed (deadlines_remove, which takes this lock), so a socket shut
     * down under this lock is never one the system already gave to someone else. */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool stopping;
    unsigned open, closing, room_from; /* connections; those shut down, not yet gone; the pressure mark */
    struct deadline_entry *first;
    pthread_t watchdog;
};

static double monotonic_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void close_connection(struct deadlines *d, struct deadline_entry *e)
{
    e->closed = true;
    ++d->closing;
    shutdown(e->fd, SHUT_RDWR); /* the connection's thread sees the end and cleans up */
}

/* Under pressure (more connections than room_from), the connections that have waited longest for
 * their headers go first, so that a new client finds a free place: a normal client sends its
 * headers in milliseconds, so the ones still waiting are slow or idle. */
static void relieve_pressure(struct deadlines *d, double now)
{
    while (d->open - d->closing > d->room_from) {
        struct deadline_entry *oldest = NULL;
        for (struct deadline_entry *e = d->first; e != NULL; e = e->next)
            if (!e->closed && e->awaiting_headers && now - e->waiting_since > EVICT_AFTER_SECONDS &&
                (oldest == NULL || e->waiting_since < oldest->waiting_since))
                oldest = e;
        if (oldest == NULL)
            return;
        close_connection(d, oldest);
    }
}

static void *watch(void *argument)
{
    struct deadlines *d = argument;
    pthread_mutex_lock(&d->lock);
    while (!d->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += WATCH_INTERVAL_NS;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_nsec -= 1000000000L;
            until.tv_sec += 1;
        }
        pthread_cond_timedwait(&d->wake, &d->lock, &until);
        double now = monotonic_seconds();
        for (struct deadline_entry *e = d->first; e != NULL; e = e->next)
            if (!e->closed && e->deadline > 0 && now > e->deadline)
                close_connection(d, e);
        relieve_pressure(d, now);
    }
    pthread_mutex_unlock(&d->lock);
    return NULL;
}

struct deadlines *deadlines_start(double header_seconds, double body_seconds, unsigned max_connections)
{
    struct deadlines *d = calloc(1, sizeof(*d));
    if (d == NULL)
        return NULL;
    d->room_from = max_connections - max_connections / 8;
    d->header_seconds = header_seconds;
    d->body_seconds = body_seconds;
    pthread_mutex_init(&d->lock, NULL);
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&d->wake, &attributes);
    pthread_condattr_destroy(&attributes);
    if (pthread_create(&d->watchdog, NULL, watch, d) != 0) {
        pthread_cond_destroy(&d->wake);
        pthread_mutex_destroy(&d->lock);
        free(d);
        return NULL;
    }
    return d;
}

/* After the server stopped: every connection is gone. */
void deadlines_stop(struct deadlines *d)
{
    if (d == NULL)
        return;
    pthread_mutex_lock(&d->lock);
    d->stopping = true;
    pthread_cond_signal(&d->wake);
    pthread_mutex_unlock(&d->lock);
    pthread_join(d->watchdog, NULL);
    while (d->first != NULL) {
        struct deadline_entry *e = d->first;
        d->first = e->next;
        free(e);
    }
    pthread_cond_destroy(&d->wake);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

struct deadline_entry *deadlines_add(struct deadlines *d, int fd)
{
    struct deadline_entry *e = calloc(1, sizeof(*e));
    if (e == NULL)
        return NULL;
    e->fd = fd;
    e->owner = d;
    pthread_mutex_lock(&d->lock);
    e->waiting_since = monotonic_seconds();
    e->awaiting_headers = true;
    e->deadline = e->waiting_since + d->header_seconds;
    ++d->open;
    e->next = d->first;
    if (d->first != NULL)
        d->first->previous = e;
    d->first = e;
    pthread_mutex_unlock(&d->lock);
    return e;
}

void deadlines_remove(struct deadline_entry *e)
{
    if (e == NULL)
        return;
    struct deadlines *d = e->owner;
    pthread_mutex_lock(&d->lock);
    if (e->previous != NULL)
        e->previous->next = e->next;
    else
        d->first = e->next;
    if (e->next != NULL)
        e->next->previous = e->previous;
    --d->open;
    if (e->closed)
        --d->closing;
    pthread_mutex_unlock(&d->lock);
    free(e);
}

static void set_deadline(struct deadline_entry *e, bool header)
{
    if (e == NULL)
        return;
    struct deadlines *d = e->owner;
    pthread_mutex_lock(&d->lock);
    double now = monotonic_seconds();
    e->deadline = now + (header ? d->header_seconds : d->body_seconds);
    e->awaiting_headers = header;
    e->waiting_since = now;
    pthread_mutex_unlock(&d->lock);
}

void deadlines_headers_received(struct deadline_entry *e)
{
    set_deadline(e, false);
}

void deadlines_request_received(struct deadline_entry *e)
{
    if (e == NULL)
        return;
    pthread_mutex_lock(&e->owner->lock);
    e->deadline = 0;
    pthread_mutex_unlock(&e->owner->lock);
}

void deadlines_request_done(struct deadline_entry *e)
{
    set_deadline(e, true);
}
