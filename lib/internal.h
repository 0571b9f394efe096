#ifndef PP_INTERNAL_H
#define PP_INTERNAL_H
#include "pp/core.h"
#endif
