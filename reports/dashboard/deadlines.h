/* Total deadlines for the parts of a request a client sends: its headers, then its body. An idle
 * timeout restarts on every byte, so a client that sends one byte a second would hold its
 * connection (and, a thread per connection, its thread) for ever; a deadline does not restart.
 * One watchdog thread closes (shutdown(2)) the sockets of connections past their deadline; the
 * connection's own thread then sees the end of its stream and cleans up as for any client that
 * went away. */
#ifndef PREFLIGHT_DASHBOARD_DEADLINES_H
#define PREFLIGHT_DASHBOARD_DEADLINES_H

#include <stdbool.h>

struct deadlines;
struct deadline_entry;

/* header_seconds: from a connection's start, or the end of its previous response, until the
 * request's headers are all in. body_seconds: from then until its body is all in. Past 7/8 of
 * max_connections open, the connections that have waited longest (over a second) for their
 * headers are closed first, so that new clients find room. */
struct deadlines *deadlines_start(double header_seconds, double body_seconds, unsigned max_connections);
void deadlines_stop(struct deadlines *d);

/* A connection opened (socket fd) and closed: the entry is what the caller keeps for it (NULL
 * when out of memory: that connection has no deadline; every function accepts NULL). */
struct deadline_entry *deadlines_add(struct deadlines *d, int fd);
void deadlines_remove(struct deadline_entry *e);

/* The request's headers are in: its body has body_seconds from now. */
void deadlines_headers_received(struct deadline_entry *e);
/* The request's body is all in (or it has none): nothing more is awaited from the client (the
 * response's sending is bounded by the idle timeout only). A response queued early, before the
 * body, leaves the body's deadline running while the rest is read and dropped. */
void deadlines_request_received(struct deadline_entry *e);
/* The response went out: the next request's headers have header_seconds from now. */
void deadlines_request_done(struct deadline_entry *e);

#endif
