/* The one option parser of the tools (cuzk, cuzk-daemon, cuzk-bench): each command declares a table of
 * its options; getopt_long reads them; `--help`/`-h` prints a usage generated from the table on stdout
 * (exit 0); every usage error is reported in one style on stderr,
 *     <prog>: <message>
 *     try '<prog> --help'
 * with exit code 2 (unknown option, missing or bad value, missing required option, wrong number of
 * positional arguments, unknown subcommand). */
#ifndef CUZK_APPS_CLI_OPTS_H
#define CUZK_APPS_CLI_OPTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* cli_parse's "go on" answer; any other answer is the exit code to return at once. */
enum { CLI_CONTINUE = -1, CLI_EXIT_USAGE = 2 };

typedef enum {
    CLI_FLAG,        /* bool *: set to true (takes no value) */
    CLI_STR,         /* const char **: the value as given */
    CLI_U64,         /* uint64_t *: decimal, no sign, within [min, max] unless both are 0 */
    CLI_INT,         /* int *: decimal, within [min, max] */
    CLI_HEX32,       /* uint8_t[32]: 64 hex digits, with or without 0x */
    CLI_SECTOR_SIZE, /* uint64_t *: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB or one of those as a byte count */
    CLI_CHOICE,      /* int *: the index of the value in choices (a NULL-terminated list) */
    CLI_CALL,        /* call(dst, value, msg, cap) for each occurrence, in order: 0, or -1 with the reason
                      * in msg (repeatable options, values checked against something else) */
    CLI_LIST,        /* cli_list *: every occurrence's value, in order, at most max of them */
} cli_kind;

/* A repeatable option's values (CLI_LIST), pointing into argv; free items with cli_list_free. */
typedef struct {
    const char **items;
    size_t n;
} cli_list;
void cli_list_free(cli_list *l);

typedef struct {
    const char *name;           /* the long name without "--"; NULL ends a table */
    char short_name;            /* 0: none */
    cli_kind kind;
    void *dst;
    const char *arg;            /* the value's name in the usage ("FILE", "N"); CLI_CHOICE: NULL lists
                                 * the choices */
    const char *help;           /* the usage line; NULL hides the option (an alias) */
    int64_t min, max;           /* CLI_U64, CLI_INT; CLI_LIST: max = the most values */
    const char *const *choices; /* CLI_CHOICE */
    int (*call)(void *dst, const char *value, char *msg, size_t cap); /* CLI_CALL */
    bool required;
    bool *seen;                 /* set to true when the option is given; may be NULL */
} cli_opt;

/* Table entries: long name, short name (0: none), destination, then per kind the value's name and
 * range, the help line, and optionally more fields (.required = true, .seen = &flag). End with CLI_END. */
#define CLI_FLAG_OPT(n, s, d, h, ...) {.name = n, .short_name = s, .kind = CLI_FLAG, .dst = d, .help = h, __VA_ARGS__}
#define CLI_STR_OPT(n, s, d, a, h, ...) \
    {.name = n, .short_name = s, .kind = CLI_STR, .dst = d, .arg = a, .help = h, __VA_ARGS__}
#define CLI_U64_OPT(n, s, d, a, lo, hi, h, ...) \
    {.name = n, .short_name = s, .kind = CLI_U64, .dst = d, .arg = a, .min = lo, .max = hi, .help = h, __VA_ARGS__}
#define CLI_INT_OPT(n, s, d, a, lo, hi, h, ...) \
    {.name = n, .short_name = s, .kind = CLI_INT, .dst = d, .arg = a, .min = lo, .max = hi, .help = h, __VA_ARGS__}
#define CLI_HEX32_OPT(n, s, d, h, ...) \
    {.name = n, .short_name = s, .kind = CLI_HEX32, .dst = d, .arg = "HEX", .help = h, __VA_ARGS__}
#define CLI_SIZE_OPT(n, s, d, h, ...) \
    {.name = n, .short_name = s, .kind = CLI_SECTOR_SIZE, .dst = d, .arg = "SIZE", .help = h, __VA_ARGS__}
#define CLI_CHOICE_OPT(n, s, d, list, h, ...) \
    {.name = n, .short_name = s, .kind = CLI_CHOICE, .dst = d, .choices = list, .help = h, __VA_ARGS__}
#define CLI_CALL_OPT(n, s, d, fn, a, h, ...) \
    {.name = n, .short_name = s, .kind = CLI_CALL, .dst = d, .call = fn, .arg = a, .help = h, __VA_ARGS__}
#define CLI_LIST_OPT(n, s, d, a, most, h, ...) \
    {.name = n, .short_name = s, .kind = CLI_LIST, .dst = d, .arg = a, .max = most, .help = h, __VA_ARGS__}
#define CLI_END {.name = NULL}

typedef struct {
    const char *prog;        /* "cuzk porep prove": the messages and the usage start with it */
    const char *args;        /* the positional arguments in the usage ("<zkey> <wtns>"); NULL: none */
    const char *about;       /* what the command does (lines of text, each ending in '\n') */
    const cli_opt *opts;     /* a table ended by an entry with name NULL; NULL: no options */
    int min_pos, max_pos;    /* how many positional arguments are allowed */
    void (*more_help)(FILE *f); /* more text after the options; may be NULL */
} cli_cmd;

/* Parses argv[1..argc) (argv[0] is the command word; argv is reordered) against c. Positional arguments
 * go to pos[0..*npos) (pos has room for c->max_pos). Returns CLI_CONTINUE, or 0 after printing the
 * usage for --help, or CLI_EXIT_USAGE after a message in the one style. */
int cli_parse(const cli_cmd *c, int argc, char **argv, const char **pos, int *npos);

/* The same for options placed before a command word (global options): parsing stops at the first
 * positional argument, whose index in argv goes to *rest (argc when there is none). */
int cli_parse_prefix(const cli_cmd *c, int argc, char **argv, int *rest);

/* Prints "<prog>: <message>" and the "try" line on stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The usage generated from c's table. */
void cli_print_help(const cli_cmd *c, FILE *f);

/* A command made of subcommands ("cuzk porep" → prove, verify). */
typedef struct {
    const char *name;                  /* NULL ends a list */
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand's name */
    const char *about;                 /* one line in the group's usage */
} cli_sub;

typedef struct {
    const char *prog;           /* "cuzk porep" */
    const char *about;          /* as in cli_cmd; may be NULL */
    const cli_sub *subs;
    void (*more_help)(FILE *f); /* may be NULL */
} cli_group;

/* Runs the subcommand named by argv[1] with argv + 1; --help/-h prints the group's usage (exit 0); a
 * missing or unknown subcommand is a usage error. */
int cli_dispatch(const cli_group *g, int argc, char **argv);

#endif
