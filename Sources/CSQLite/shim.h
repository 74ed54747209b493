#ifndef LINKSTR_CSQLITE_SHIM_H
#define LINKSTR_CSQLITE_SHIM_H
#include <sqlite3.h>
/* SQLITE_TRANSIENT is a cast macro Swift cannot import (platform notes P3). */
static inline sqlite3_destructor_type sw_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
