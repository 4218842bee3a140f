#ifndef JACKTAP_CSNDFILE_SHIM_H
#define JACKTAP_CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
