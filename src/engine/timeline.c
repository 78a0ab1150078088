/* The engine's log: TIMELINE CSV lines (`TIMELINE,<ms since start>,<EVENT>,<job>,<detail>`) that a
 * script can cut out of the daemon's log, free-form messages, and the latency histograms. */
#include <stdarg.h>
#include <stdio.h>

#include "engine/clock.h"
#include "engine/engine_internal.h"

const double cuzk_hist_bounds_s[HIST_BUCKETS] = {0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600};

void cuzk_hist_add(hist_t *h, double seconds)
{
    size_t i = 0;
    while (i < HIST_BUCKETS && seconds > cuzk_hist_bounds_s[i])
        i++;
    h->count[i]++;
    h->sum += seconds;
    h->n++;
}

void cuzk_engine_timeline(cuzk_engine_t *e, const char *event, const char *job, const char *fmt, ...)
{
    if (!e->cfg.log)
        return;
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    for (char *c = detail; *c; c++) /* keep the CSV one line, five fields */
        if (*c == '\n' || *c == ',')
            *c = *c == ',' ? ';' : ' ';
    pthread_mutex_lock(&e->log_mu);
    fprintf(e->cfg.log, "TIMELINE,%llu,%s,%s,%s\n", (unsigned long long)((cuzk_engine_now_ns() - e->t_start) / 1000000),
            event, job, detail);
    fflush(e->cfg.log);
    pthread_mutex_unlock(&e->log_mu);
}

void cuzk_engine_log(cuzk_engine_t *e, const char *fmt, ...)
{
    if (!e->cfg.log)
        return;
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&e->log_mu);
    vfprintf(e->cfg.log, fmt, ap);
    fputc('\n', e->cfg.log);
    fflush(e->cfg.log);
    pthread_mutex_unlock(&e->log_mu);
    va_end(ap);
}
