#ifndef LINKSTR_CCHAFA_SHIM_H
#define LINKSTR_CCHAFA_SHIM_H
/* Debian's libchafa: pixels to terminal cells (symbols with colours, sixel, kitty, iTerm2). */
#include <chafa.h>
#endif
