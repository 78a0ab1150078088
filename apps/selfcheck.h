/* `cuzk selfcheck`: quick known-answer checks of the arithmetic on the running machine. */
#ifndef CUZK_APPS_SELFCHECK_H
#define CUZK_APPS_SELFCHECK_H
/* Returns the number of failed checks (0 = all good); prints one line per check. */
int selfcheck_run(void);
#endif
