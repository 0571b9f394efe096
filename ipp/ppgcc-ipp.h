/* What the GCC plugin's core knows of interprocedural path segments
   (ipp/, doc/ipp.md): one entry, called when every function of the unit
   is there.  The options (-fprofile-paths-ipp*) are in ppgcc_options
   (plugin/ipp-adapter.h).  */
#ifndef PPGCC_IPP_ENTRY_H
#define PPGCC_IPP_ENTRY_H

/* -fprofile-paths-ipp, run when every function of the unit is lowered
   (before the IPA passes): chooses the call sites from the profile in
   use, makes the duplicates, instruments the whole unit (gcc-unit.cc;
   functions without expanded calls as without -fprofile-paths-ipp).  */
void ppgcc_ipp_instrument_unit ();

#endif
