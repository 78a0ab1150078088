/* Listen addresses (net_addr.h): the split, and the resolution shared by the gRPC and HTTP listeners. */
#include "server/net_addr.h"

#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cuzk_net_split_host_port(const char *addr, char host[256], char port[8])
{
    const char *colon = strrchr(addr, ':');
    size_t hl = colon ? (size_t)(colon - addr) : 0;
    if (!colon || hl == 0 || hl >= 256 || !colon[1] || strlen(colon + 1) >= 8)
        return false;
    memcpy(host, addr, hl);
    host[hl] = '\0';
    if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
        memmove(host, host + 1, hl - 2);
        host[hl - 2] = '\0';
    }
    strcpy(port, colon + 1);
    return true;
}

/* Whether an earlier entry of the list has the same address. */
static bool seen_before(const struct addrinfo *list, const struct addrinfo *ai)
{
    for (const struct addrinfo *p = list; p != ai; p = p->ai_next)
        if (p->ai_addrlen == ai->ai_addrlen && memcmp(p->ai_addr, ai->ai_addr, ai->ai_addrlen) == 0)
            return true;
    return false;
}

int cuzk_net_resolve(const char *host, const char *port, cuzk_net_addr_t out[CUZK_NET_MAX_ADDRS], size_t *n)
{
    *n = 0;
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE | AI_NUMERICSERV}, *res = NULL;
    int gai = getaddrinfo(host, port, &hints, &res);
    if (gai != 0)
        return gai;
    for (const struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        if ((ai->ai_family != AF_INET && ai->ai_family != AF_INET6) || seen_before(res, ai) ||
            ai->ai_addrlen > sizeof out[0].sa)
            continue;
        if (*n < CUZK_NET_MAX_ADDRS) {
            memset(&out[*n], 0, sizeof out[*n]);
            memcpy(&out[*n].sa, ai->ai_addr, ai->ai_addrlen);
            out[*n].len = ai->ai_addrlen;
        }
        (*n)++;
    }
    freeaddrinfo(res);
    return 0;
}

void cuzk_net_set_port(cuzk_net_addr_t *a, int port)
{
    if (a->sa.ss_family == AF_INET)
        ((struct sockaddr_in *)&a->sa)->sin_port = htons((uint16_t)port);
    else
        ((struct sockaddr_in6 *)&a->sa)->sin6_port = htons((uint16_t)port);
}

bool cuzk_net_numeric(const cuzk_net_addr_t *a, char *out, size_t out_len)
{
    char ip[NI_MAXHOST];
    if (getnameinfo((const struct sockaddr *)&a->sa, a->len, ip, sizeof ip, NULL, 0, NI_NUMERICHOST) != 0)
        return false;
    snprintf(out, out_len, a->sa.ss_family == AF_INET6 ? "[%s]" : "%s", ip);
    return true;
}
