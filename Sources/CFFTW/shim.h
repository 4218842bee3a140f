#ifndef JACKTAP_CFFTW_SHIM_H
#define JACKTAP_CFFTW_SHIM_H
#include <fftw3.h>
#endif
