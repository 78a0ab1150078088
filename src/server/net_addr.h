/* Listen addresses of the daemon's TCP servers (gRPC and HTTP status): "host:port" split, and the distinct
 * IPv4/IPv6 addresses a host resolves to, so that each server binds every one of them or none (a name such
 * as localhost may stand for 127.0.0.1 and ::1). */
#ifndef CUZK_SERVER_NET_ADDR_H
#define CUZK_SERVER_NET_ADDR_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#define CUZK_NET_MAX_ADDRS 8 /* addresses of one name that are bound; more is refused */

typedef struct {
    struct sockaddr_storage sa;
    socklen_t len;
} cuzk_net_addr_t;

/* "host:port" or "[v6]:port" into the host (brackets dropped) and the port's digits; false when addr has
 * no such form. */
bool cuzk_net_split_host_port(const char *addr, char host[256], char port[8]);

/* The distinct IPv4 and IPv6 addresses of host (passive: a wildcard for an empty host), with port set,
 * in the resolver's order: up to CUZK_NET_MAX_ADDRS into out, their count (beyond the room too) in *n.
 * Returns getaddrinfo's code (0: resolved). */
int cuzk_net_resolve(const char *host, const char *port, cuzk_net_addr_t out[CUZK_NET_MAX_ADDRS], size_t *n);

/* Sets the port of a resolved address. */
void cuzk_net_set_port(cuzk_net_addr_t *a, int port);

/* The address as "ip" (IPv4) or "[ip]" (IPv6) in out; false when it has no numeric form. */
bool cuzk_net_numeric(const cuzk_net_addr_t *a, char *out, size_t out_len);

#endif
