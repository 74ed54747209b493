#ifndef LINKSTR_CQRENCODE_SHIM_H
#define LINKSTR_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
