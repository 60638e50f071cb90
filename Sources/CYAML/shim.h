#ifndef STRATA_CYAML_SHIM_H
#define STRATA_CYAML_SHIM_H

#include <yaml.h>

#endif
