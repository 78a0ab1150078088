/* The tools' option parser (cli_opts.h): a table per command read with getopt_long, the usage generated
 * from the table, one style for every usage error. */
#include "cli_opts.h"
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"

enum { LONG_BASE = 256, HELP_COLUMN = 28 };

int cli_usage_error(const char *prog, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\ntry '%s --help'\n", prog);
    va_end(ap);
    return CLI_EXIT_USAGE;
}

static size_t count_opts(const cli_opt *o)
{
    size_t n = 0;
    while (o && o[n].name)
        n++;
    return n;
}

static bool takes_value(const cli_opt *o) { return o->kind != CLI_FLAG; }

/* "a, b or c" into buf. */
static void join_choices(char *buf, size_t cap, const char *const *choices, const char *sep, const char *last)
{
    size_t n = 0, len = 0;
    while (choices[n])
        n++;
    buf[0] = 0;
    for (size_t i = 0; i < n; i++) {
        const char *s = i == 0 ? "" : i + 1 == n ? last : sep;
        int w = snprintf(buf + len, len < cap ? cap - len : 0, "%s%s", s, choices[i]);
        if (w > 0)
            len += (size_t)w;
    }
}

static const char *arg_name(const cli_opt *o, char *buf, size_t cap)
{
    if (o->arg)
        return o->arg;
    if (o->kind == CLI_CHOICE && o->choices) {
        join_choices(buf, cap, o->choices, "|", "|");
        return buf;
    }
    return "VALUE";
}

/* "--name ARG" (or "--name"), as in the synopsis. */
static int format_opt(char *buf, size_t cap, const cli_opt *o)
{
    char choices[256];
    if (!takes_value(o))
        return snprintf(buf, cap, "--%s", o->name);
    return snprintf(buf, cap, "--%s %s", o->name, arg_name(o, choices, sizeof choices));
}

void cli_print_help(const cli_cmd *c, FILE *f)
{
    size_t n = count_opts(c->opts);
    bool optional = false;
    fprintf(f, "usage: %s", c->prog);
    if (c->args)
        fprintf(f, " %s", c->args);
    for (size_t i = 0; i < n; i++) {
        char b[300];
        if (c->opts[i].required && c->opts[i].help) {
            format_opt(b, sizeof b, &c->opts[i]);
            fprintf(f, " %s", b);
        } else if (c->opts[i].help) {
            optional = true;
        }
    }
    fprintf(f, "%s\n", optional ? " [options]" : "");
    if (c->about)
        fprintf(f, "\n%s", c->about);
    fprintf(f, "\noptions:\n");
    for (size_t i = 0; i <= n; i++) {
        const cli_opt *o = i < n ? &c->opts[i] : NULL;
        if (o && !o->help)
            continue;
        char head[320], b[300];
        if (o) {
            format_opt(b, sizeof b, o);
            if (o->short_name)
                snprintf(head, sizeof head, "  -%c, %s", o->short_name, b);
            else
                snprintf(head, sizeof head, "      %s", b);
        } else {
            snprintf(head, sizeof head, "  -h, --help");
        }
        int w = (int)strlen(head);
        if (w >= HELP_COLUMN - 1)
            fprintf(f, "%s\n%*s", head, HELP_COLUMN, "");
        else
            fprintf(f, "%-*s", HELP_COLUMN, head);
        if (o)
            fprintf(f, "%s%s\n", o->help, o->required ? " (required)" : "");
        else
            fprintf(f, "print this help and exit\n");
    }
    if (c->more_help)
        c->more_help(f);
}

/* The value of option o into its destination; CLI_CONTINUE, or CLI_EXIT_USAGE after the message. */
static int store(const cli_cmd *c, const cli_opt *o, const char *v)
{
    char msg[256];
    errno = 0;
    switch (o->kind) {
    case CLI_FLAG:
        *(bool *)o->dst = true;
        return CLI_CONTINUE;
    case CLI_STR:
        *(const char **)o->dst = v;
        return CLI_CONTINUE;
    case CLI_U64: {
        uint64_t x;
        bool bounded = o->min || o->max;
        if (cli_parse_u64(v, &x) != 0 || (bounded && (x < (uint64_t)o->min || x > (uint64_t)o->max))) {
            if (bounded)
                return cli_usage_error(c->prog, "--%s: bad value '%s' (expects a number from %lld to %lld)",
                                       o->name, v, (long long)o->min, (long long)o->max);
            return cli_usage_error(c->prog, "--%s: bad value '%s' (expects a number)", o->name, v);
        }
        *(uint64_t *)o->dst = x;
        return CLI_CONTINUE;
    }
    case CLI_INT: {
        char *end;
        long long x = strtoll(v, &end, 10);
        if (!*v || *end || errno || x < o->min || x > o->max)
            return cli_usage_error(c->prog, "--%s: bad value '%s' (expects a number from %lld to %lld)", o->name,
                                   v, (long long)o->min, (long long)o->max);
        *(int *)o->dst = (int)x;
        return CLI_CONTINUE;
    }
    case CLI_HEX32:
        if (cli_hex32(o->dst, v) != 0)
            return cli_usage_error(c->prog, "--%s: bad value '%s' (expects 64 hex digits)", o->name, v);
        return CLI_CONTINUE;
    case CLI_SECTOR_SIZE: {
        uint64_t x = cli_parse_sector_size(v);
        if (!x)
            return cli_usage_error(c->prog, "--%s: bad value '%s' (expects 2KiB, 8MiB, 512MiB, 32GiB or 64GiB)",
                                   o->name, v);
        *(uint64_t *)o->dst = x;
        return CLI_CONTINUE;
    }
    case CLI_CHOICE:
        for (int i = 0; o->choices[i]; i++)
            if (strcmp(v, o->choices[i]) == 0) {
                *(int *)o->dst = i;
                return CLI_CONTINUE;
            }
        join_choices(msg, sizeof msg, o->choices, ", ", " or ");
        return cli_usage_error(c->prog, "--%s: bad value '%s' (expects %s)", o->name, v, msg);
    case CLI_CALL:
        msg[0] = 0;
        if (o->call(o->dst, v, msg, sizeof msg) != 0)
            return cli_usage_error(c->prog, "--%s: bad value '%s'%s%s%s", o->name, v, msg[0] ? " (" : "", msg,
                                   msg[0] ? ")" : "");
        return CLI_CONTINUE;
    case CLI_LIST: {
        cli_list *l = o->dst;
        if (l->n == (size_t)o->max)
            return cli_usage_error(c->prog, "--%s: more than %lld given", o->name, (long long)o->max);
        if (!l->items && !(l->items = calloc((size_t)o->max, sizeof *l->items)))
            return cli_usage_error(c->prog, "--%s: out of memory", o->name);
        l->items[l->n++] = v;
        return CLI_CONTINUE;
    }
    }
    return cli_usage_error(c->prog, "--%s: unhandled option", o->name);
}

/* The parse itself: in prefix mode, stops at the first positional argument (*rest). */
static int parse(const cli_cmd *c, int argc, char **argv, const char **pos, int *npos, int *rest)
{
    size_t n = count_opts(c->opts);
    struct option *lo = calloc(n + 2, sizeof *lo);
    char *shorts = malloc(3 * n + 8);
    bool *given = calloc(n + 1, sizeof *given);
    if (!lo || !shorts || !given) {
        free(lo);
        free(shorts);
        free(given);
        fprintf(stderr, "%s: out of memory\n", c->prog);
        return 1;
    }
    size_t k = 0;
    if (rest)
        shorts[k++] = '+';
    shorts[k++] = ':';
    shorts[k++] = 'h';
    for (size_t i = 0; i < n; i++) {
        const cli_opt *o = &c->opts[i];
        lo[i] = (struct option){o->name, takes_value(o) ? required_argument : no_argument, NULL, LONG_BASE + (int)i};
        if (o->short_name) {
            shorts[k++] = o->short_name;
            if (takes_value(o))
                shorts[k++] = ':';
        }
    }
    shorts[k] = 0;
    lo[n] = (struct option){"help", no_argument, NULL, 'h'};

    int rc = CLI_CONTINUE;
    optind = 0; /* GNU getopt: start afresh (the tools parse several argument lists) */
    opterr = 0;
    for (int ch; rc == CLI_CONTINUE && (ch = getopt_long(argc, argv, shorts, lo, NULL)) != -1;) {
        if (ch == 'h') {
            cli_print_help(c, stdout);
            rc = 0;
            break;
        }
        if (ch == '?') {
            if (optopt >= LONG_BASE && (size_t)(optopt - LONG_BASE) < n)
                rc = cli_usage_error(c->prog, "--%s takes no value", c->opts[optopt - LONG_BASE].name);
            else if (optopt > 0 && optopt < LONG_BASE)
                rc = cli_usage_error(c->prog, "unknown option '-%c'", optopt);
            else
                rc = cli_usage_error(c->prog, "unknown option '%s'", argv[optind - 1]);
            break;
        }
        size_t idx = n;
        int which = ch == ':' ? optopt : ch;
        if (which >= LONG_BASE)
            idx = (size_t)(which - LONG_BASE);
        else
            for (size_t i = 0; i < n; i++)
                if (c->opts[i].short_name == which)
                    idx = i;
        if (idx >= n) {
            rc = cli_usage_error(c->prog, "unknown option '%s'", argv[optind - 1]);
            break;
        }
        const cli_opt *o = &c->opts[idx];
        if (ch == ':') {
            char b[256];
            rc = cli_usage_error(c->prog, "--%s needs a value (%s)", o->name, arg_name(o, b, sizeof b));
            break;
        }
        given[idx] = true;
        if (o->seen)
            *o->seen = true;
        rc = store(c, o, optarg);
    }
    if (rc == CLI_CONTINUE && rest)
        *rest = optind;
    if (rc == CLI_CONTINUE && !rest) {
        *npos = 0;
        for (int i = optind; i < argc && rc == CLI_CONTINUE; i++) {
            if (*npos >= c->max_pos)
                rc = cli_usage_error(c->prog, "unexpected argument '%s'", argv[i]);
            else
                pos[(*npos)++] = argv[i];
        }
        if (rc == CLI_CONTINUE && *npos < c->min_pos)
            rc = cli_usage_error(c->prog, "expected %s", c->args ? c->args : "more arguments");
    }
    for (size_t i = 0; i < n && rc == CLI_CONTINUE; i++)
        if (c->opts[i].required && !given[i])
            rc = cli_usage_error(c->prog, "--%s is required", c->opts[i].name);
    free(lo);
    free(shorts);
    free(given);
    return rc;
}

int cli_parse(const cli_cmd *c, int argc, char **argv, const char **pos, int *npos)
{
    int none = 0;
    return parse(c, argc, argv, pos, npos ? npos : &none, NULL);
}

int cli_parse_prefix(const cli_cmd *c, int argc, char **argv, int *rest)
{
    return parse(c, argc, argv, NULL, NULL, rest);
}

/* "a, b or c" of the subcommand names. */
static void sub_names(char *buf, size_t cap, const cli_sub *subs)
{
    const char *names[32];
    size_t n = 0;
    while (subs[n].name && n < 31) {
        names[n] = subs[n].name;
        n++;
    }
    names[n] = NULL;
    join_choices(buf, cap, names, ", ", " or ");
}

static void group_help(const cli_group *g, FILE *f)
{
    fprintf(f, "usage: %s <command> [options]\n", g->prog);
    if (g->about)
        fprintf(f, "\n%s", g->about);
    fprintf(f, "\ncommands:\n");
    for (const cli_sub *s = g->subs; s->name; s++) {
        if (strlen(s->name) + 2 >= HELP_COLUMN - 1)
            fprintf(f, "  %s\n%*s%s\n", s->name, HELP_COLUMN, "", s->about);
        else
            fprintf(f, "  %-*s%s\n", HELP_COLUMN - 2, s->name, s->about);
    }
    if (g->more_help)
        g->more_help(f);
    fprintf(f, "\n'%s <command> --help' describes a command's options.\n", g->prog);
}

int cli_dispatch(const cli_group *g, int argc, char **argv)
{
    char names[256];
    sub_names(names, sizeof names, g->subs);
    if (argc < 2)
        return cli_usage_error(g->prog, "expected a command: %s", names);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        group_help(g, stdout);
        return 0;
    }
    for (const cli_sub *s = g->subs; s->name; s++)
        if (strcmp(argv[1], s->name) == 0)
            return s->run(argc - 1, argv + 1);
    return cli_usage_error(g->prog, "unknown command '%s' (expected %s)", argv[1], names);
}

void cli_list_free(cli_list *l)
{
    free(l->items);
    l->items = NULL;
    l->n = 0;
}
