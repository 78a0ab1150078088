#include "ff/ff_impl.h"
static cuzk_impl current;
cuzk_status ff_set_impl(cuzk_impl impl) { if (!cuzk_impl_supported(impl)) return CUZK_ERR_UNSUPPORTED; current = impl; return CUZK_OK; }
cuzk_impl ff_get_impl(void) { return current; }
