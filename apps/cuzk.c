/* cuzk: the offline tool.
 *   cuzk selfcheck    quick known-answer checks of the arithmetic on this machine */
#include <stdio.h>
#include <string.h>
#include "selfcheck.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk <command>\n\ncommands:\n"
               "  selfcheck   run quick known-answer checks of the arithmetic on this machine\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "selfcheck") == 0)
        return cuzk_selfcheck() ? 1 : 0;
    fprintf(stderr, "cuzk: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
