/* --impl and the environment: see cli_impl.h. */
#include "cli_impl.h"
#include <stdio.h>
#include <string.h>
#include "cuzk/cuzk.h"

int cli_impl_init(const char *prog, int *argc, char **argv)
{
    const char *name = NULL;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--") == 0) { /* the rest are operands */
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        if (strcmp(argv[i], "--impl") == 0) {
            if (i + 1 >= *argc) {
                fprintf(stderr, "%s: --impl needs a value (portable, adx or ifma)\n", prog);
                return 2;
            }
            name = argv[++i];
        } else if (strncmp(argv[i], "--impl=", 7) == 0) {
            name = argv[i] + 7;
        } else {
            argv[out++] = argv[i];
        }
    }
    *argc = out;
    argv[out] = NULL;

    cuzk_init_options_t opts = {.from_env = true};
    if (name) {
        if (!cuzk_impl_parse(name, &opts.impl)) {
            fprintf(stderr, "%s: --impl: bad value '%s' (expects portable, adx or ifma)\n", prog, name);
            return 2;
        }
        if (!cuzk_impl_supported(opts.impl)) {
            fprintf(stderr, "%s: implementation '%s' is not supported by this CPU\n", prog, name);
            return 2;
        }
    }
    cuzk_err_t err;
    if (cuzk_init(&opts, &err) != CUZK_OK)
        fprintf(stderr, "%s: warning: %s\n", prog, err.msg);
    return 0;
}
