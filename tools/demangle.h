/* C++ symbol names as people read them, for every report.  */
#ifndef PPPROF_DEMANGLE_H
#define PPPROF_DEMANGLE_H

/* NAME demangled when it is a C++ symbol (libiberty's cplus_demangle,
   with parameters: overloads stay apart), in a malloc'd string; NULL when
   it is not one (a C name) or out of memory.  */
char *pp_demangle (const char *name);

/* NAME as the text outputs print it: demangled into *TMP, which the
   caller frees, when a C++ symbol; else NAME itself (*TMP NULL).  */
const char *pp_shown_name (const char *name, char **tmp);

/* Whether --function WANTED names SYMBOL: WANTED is SYMBOL, or its
   demangled name ("geo::twice(int)" for _ZN3geo5twiceEi).  */
int pp_same_function (const char *symbol, const char *wanted);

#endif
