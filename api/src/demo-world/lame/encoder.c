/*
 * The demo world's MP3 encoder: LAME 3.100 (libmp3lame, LGPL) behind five calls, compiled to WebAssembly by build.sh
 * into lame.wasm. Unlike the packaged WebAssembly LAME, it lets the caller choose LAME's quality setting (the -q
 * flag): mp3-encoder.ts says which, and why. Mono, constant bit rate, no tags.
 */
#include <stdlib.h>
#include "lame.h"

typedef struct {
  lame_global_flags *flags;
  float *pcm;
  unsigned char *out;
  int out_size;
} encoder;

/* An encoder taking at most `max_samples` samples per call, or 0 when LAME refuses the settings. */
__attribute__((export_name("encoder_open")))
encoder *encoder_open(int sample_rate, int kbps, int quality, int max_samples) {
  encoder *e = calloc(1, sizeof(encoder));
  if (!e) return 0;
  /* LAME's own worst case for a buffer's output: 1.25 bytes a sample and 7,200 bytes. */
  e->out_size = max_samples + max_samples / 4 + 7200;
  e->pcm = malloc(sizeof(float) * max_samples);
  e->out = malloc(e->out_size);
  e->flags = lame_init();
  if (!e->pcm || !e->out || !e->flags) return 0;
  /* Nowhere to print to: LAME's messages are dropped rather than written through the C library. */
  lame_set_errorf(e->flags, 0);
  lame_set_debugf(e->flags, 0);
  lame_set_msgf(e->flags, 0);
  lame_set_num_channels(e->flags, 1);
  lame_set_mode(e->flags, MONO);
  lame_set_in_samplerate(e->flags, sample_rate);
  lame_set_out_samplerate(e->flags, sample_rate);
  lame_set_VBR(e->flags, vbr_off);
  lame_set_brate(e->flags, kbps);
  lame_set_quality(e->flags, quality);
  lame_set_bWriteVbrTag(e->flags, 0);
  lame_set_write_id3tag_automatic(e->flags, 0);
  if (lame_init_params(e->flags) < 0) return 0;
  return e;
}

/* Where the caller writes the samples of the next call (-1 to 1). */
__attribute__((export_name("encoder_pcm")))
float *encoder_pcm(encoder *e) { return e->pcm; }

/* Where each call leaves its MP3 bytes. */
__attribute__((export_name("encoder_out")))
unsigned char *encoder_out(encoder *e) { return e->out; }

/* Encodes `count` samples of the PCM buffer: how many MP3 bytes it left in the out buffer, or below 0 on failure. */
__attribute__((export_name("encoder_encode")))
int encoder_encode(encoder *e, int count) {
  return lame_encode_buffer_ieee_float(e->flags, e->pcm, e->pcm, count, e->out, e->out_size);
}

/* The last frames: how many bytes it left in the out buffer. */
__attribute__((export_name("encoder_finish")))
int encoder_finish(encoder *e) { return lame_encode_flush(e->flags, e->out, e->out_size); }

__attribute__((export_name("encoder_close")))
void encoder_close(encoder *e) {
  lame_close(e->flags);
  free(e->pcm);
  free(e->out);
  free(e);
}
