/* Exported intermediates: the images a test read back (an observed shading-rate map, a mesh
 * shader's output, a ray-traced hit image), written as PNG files into the directory given by
 * `preflight-probe --artifacts DIR` and referenced from the test's evidence by file name and
 * SHA-256, so a reader can see what the GPU produced and prove which file a verdict rests on. */
#ifndef PREFLIGHT_SMOKE_ARTIFACTS_H
#define PREFLIGHT_SMOKE_ARTIFACTS_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

/* Where files go (NULL: nowhere; the evidence then says so) and what every file name starts with
 * (the device). Set once per test process. */
void artifacts_configure(const char *dir, const char *prefix);
/* The test whose files follow (part of each file name). */
void artifacts_begin_test(const char *test_id);

/* Colours for small integer codes (shading rates, hit kinds): code -> RGB. */
struct artifact_palette {
    uint32_t code;
    uint8_t rgb[3];
};

/* Writes `width` x `height` codes as an RGB PNG, each code in its palette colour (unknown codes
 * magenta), and appends {"name", "file", "sha256", "width", "height", "what"} to the evidence's
 * "artifacts" array. Codes are read as `stride`-byte little-endian integers (1 or 4). Without a
 * directory, appends {"name", "what", "written": false} instead. false when the file could not
 * be written (the entry then says why): never a reason to change a verdict. */
bool artifacts_write_codes(cJSON *evidence, const char *name, const char *what, uint32_t width, uint32_t height,
                           const void *codes, unsigned stride, const struct artifact_palette *palette,
                           unsigned palette_size);

/* The same for an image in colour: `rgb` holds width x height x 3 bytes, row after row. */
bool artifacts_write_rgb(cJSON *evidence, const char *name, const char *what, uint32_t width, uint32_t height,
                         const uint8_t *rgb);

/* The PNG bytes of an RGB image (malloc'd; NULL on failure), for the writer and its unit test. */
uint8_t *artifacts_encode_png_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, size_t *size);

#endif
