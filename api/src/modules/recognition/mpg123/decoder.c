/*
 * Recognition's MP3 decoder: libmpg123 (mpg123 1.31.2 as Debian 12 ships it, LGPL 2.1, not modified here) behind a
 * few calls, compiled to WebAssembly by build.sh into mpg123.wasm. Recognition analyses mono audio at 8,000 Hz, so
 * the decoder is told to produce no more: the channels are mixed in the frequency domain (one hybrid filter bank and
 * one synthesis instead of two; libmpg123 does so for layer III, while a layer I or II stream gives its left channel),
 * and the only output rates allowed are 8,000, 11,025 and 12,000 Hz, which makes libmpg123 pick, frame header by
 * frame header, its quarter-rate decode for 32/44.1/48 kHz streams (layer III then runs the hybrid filter bank for
 * the lowest 8 of 32 subbands), its half-rate decode for 16/22.05/24 kHz and the native rate for 8/11.025/12 kHz. A
 * stream whose rate changes gets a new down-sampling with the new format, as any format change.
 */
#include <stdlib.h>
#include "mpg123.h"

/* Bytes fed per call, and float samples one read may leave (a read stops when the next frame would not fit). */
#define INPUT_BYTES 16384
#define OUTPUT_SAMPLES 65536

typedef struct {
  mpg123_handle *handle;
  long rate;
  size_t samples;
  unsigned char input[INPUT_BYTES];
  float output[OUTPUT_SAMPLES];
} decoder;

static const long analysis_rates[] = {8000, 11025, 12000};

/* A decoder ready for a new stream, or 0 when libmpg123 refuses the settings. */
__attribute__((export_name("decoder_open")))
decoder *decoder_open(void) {
  decoder *d = calloc(1, sizeof(decoder));
  if (!d) return 0;
  int error = mpg123_init();
  if (error == MPG123_OK) d->handle = mpg123_new(0, &error);
  if (!d->handle) {
    free(d);
    return 0;
  }
  /* MPG123_AUTO_RESAMPLE lets libmpg123 choose a down-sampled rate among the formats allowed below. */
  long flags = MPG123_GAPLESS | MPG123_MONO_MIX | MPG123_FORCE_FLOAT | MPG123_AUTO_RESAMPLE | MPG123_QUIET;
  if (mpg123_param(d->handle, MPG123_FLAGS, flags, 0) ||
      mpg123_format_none(d->handle)) {
    mpg123_delete(d->handle);
    free(d);
    return 0;
  }
  for (size_t i = 0; i < sizeof analysis_rates / sizeof analysis_rates[0]; i += 1)
    if (mpg123_format(d->handle, analysis_rates[i], MPG123_MONO, MPG123_ENC_FLOAT_32)) {
      mpg123_delete(d->handle);
      free(d);
      return 0;
    }
  if (mpg123_open_feed(d->handle)) {
    mpg123_delete(d->handle);
    free(d);
    return 0;
  }
  return d;
}

/* Where the caller writes the bytes of the next feed (at most decoder_input_size). */
__attribute__((export_name("decoder_input")))
unsigned char *decoder_input(decoder *d) { return d->input; }

__attribute__((export_name("decoder_input_size")))
int decoder_input_size(void) { return INPUT_BYTES; }

/* Where each read leaves its mono samples (-1 to 1). */
__attribute__((export_name("decoder_output")))
float *decoder_output(decoder *d) { return d->output; }

/* Hands `length` bytes of the input buffer to libmpg123: MPG123_OK or an error code. */
__attribute__((export_name("decoder_feed")))
int decoder_feed(decoder *d, int length) { return mpg123_feed(d->handle, d->input, length); }

/*
 * Decodes what the fed bytes complete into the output buffer: libmpg123's status (MPG123_NEED_MORE once the fed bytes
 * are used up, MPG123_NEW_FORMAT when a stream starts or changes format, below 0 on errors). decoder_samples and
 * decoder_rate then tell how many samples it left, at which rate.
 */
__attribute__((export_name("decoder_read")))
int decoder_read(decoder *d) {
  size_t bytes = 0;
  int status = mpg123_read(d->handle, d->output, sizeof d->output, &bytes);
  d->samples = bytes / sizeof(float);
  if (status == MPG123_NEW_FORMAT || d->samples > 0) {
    int channels, encoding;
    if (mpg123_getformat(d->handle, &d->rate, &channels, &encoding) != MPG123_OK) d->rate = 0;
  }
  return status;
}

__attribute__((export_name("decoder_samples")))
int decoder_samples(decoder *d) { return (int)d->samples; }

__attribute__((export_name("decoder_rate")))
int decoder_rate(decoder *d) { return (int)d->rate; }

__attribute__((export_name("decoder_close")))
void decoder_close(decoder *d) {
  mpg123_delete(d->handle);
  free(d);
}
