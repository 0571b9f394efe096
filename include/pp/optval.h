/* The numeric values of ppgcc's options, checked alike by the driver
   (before gcc runs, whatever the mode) and by the plugin (which may be
   given -fplugin-arg-ppgcc-KEY=VALUE without the driver): one table, so
   that both say the same thing about the same value.  */
#ifndef PP_OPTVAL_H
#define PP_OPTVAL_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef enum
{
  PP_VAL_WHOLE,   /* a whole number from MIN up to 2^64-1 */
  PP_VAL_PERCENT  /* a number from 0 to 100 (above 0 when MIN is 1) */
} pp_val_kind;

typedef struct
{
  const char *option; /* the driver's option, as messages name it */
  const char *key;    /* the plugin argument */
  pp_val_kind kind;
  int min;
  const char *expects; /* "OPTION=VALUE: not EXPECTS" */
} pp_numeric_option;

static const pp_numeric_option pp_numeric_options[] = {
  { "-fprofile-paths-array-max", "array-max", PP_VAL_WHOLE, 0,
    "a number of paths (a whole number, 0 or more)" },
  { "-fprofile-paths-max", "max-paths", PP_VAL_WHOLE, 0,
    "a number of paths (a whole number, 0 or more; 0: no limit)" },
  { "-fprofile-paths-ppp-min-paths", "ppp-min-paths", PP_VAL_WHOLE, 0,
    "a number of paths (a whole number, 0 or more)" },
  { "-fprofile-paths-ipp-depth", "ipp-depth", PP_VAL_WHOLE, 1,
    "a number of calls (a whole number, 1 or more)" },
  { "-fprofile-paths-ipp-growth", "ipp-growth", PP_VAL_WHOLE, 0,
    "a percentage of the unit's size (a whole number, 0 or more)" },
  { "-fprofile-paths-ipp-contexts", "ipp-contexts", PP_VAL_WHOLE, 0,
    "a number of call sites (a whole number, 0 or more; 0: all)" },
  { "-fprofile-paths-ipp-inline-stmts", "ipp-inline-stmts", PP_VAL_WHOLE, 0,
    "a number of statements (a whole number, 0 or more)" },
  { "-fprofile-paths-hot", "hot", PP_VAL_PERCENT, 1,
    "a percentage above 0 and at most 100" },
  { "-fpath-superblock-growth", "superblock-growth", PP_VAL_WHOLE, 0,
    "a percentage of the function's size (a whole number, 0 or more)" },
  { "-fpath-superblock-hot", "superblock-hot", PP_VAL_PERCENT, 0,
    "a percentage from 0 to 100" },
  { NULL, NULL, PP_VAL_WHOLE, 0, NULL }
};

/* The entry of the driver's OPTION (when BY_KEY is 0) or of the plugin's
   KEY, or null.  */
static inline const pp_numeric_option *
pp_numeric_option_find (const char *name, int by_key)
{
  for (const pp_numeric_option *o = pp_numeric_options; o->option; o++)
    if (!strcmp (by_key ? o->key : o->option, name))
      return o;
  return NULL;
}

/* Whether VAL is a value of O: then *WHOLE or *PERCENT (by O's kind) gets
   it.  Digits only (no sign, no blanks, no hexadecimal): strtoull would
   take "-1" as 2^64-1.  */
static inline int
pp_numeric_value (const pp_numeric_option *o, const char *val,
                  unsigned long long *whole, double *percent)
{
  if (!val || !((*val >= '0' && *val <= '9') || *val == '.'))
    return 0;
  char *end;
  errno = 0;
  if (o->kind == PP_VAL_WHOLE)
    {
      unsigned long long v = strtoull (val, &end, 10);
      if (*end || errno || v < (unsigned long long) o->min)
        return 0;
      if (whole)
        *whole = v;
      return 1;
    }
  if (strspn (val, "0123456789.") != strlen (val))
    return 0; /* no exponents, inf or nan */
  double p = strtod (val, &end);
  if (*end || errno || !(p >= 0 && p <= 100) || (o->min && p == 0))
    return 0;
  if (percent)
    *percent = p;
  return 1;
}

#endif
