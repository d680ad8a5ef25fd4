/* Area `binding`: the shader's bindings against what is bound (set present and compatible,
 * descriptor written, descriptor type as declared), and resources written into descriptors
 * against their usage flags. */
#ifndef PREFLIGHT_LAYER_CHECK_BINDING_H
#define PREFLIGHT_LAYER_CHECK_BINDING_H

#include "state_command_buffers.h"
#include "state_device.h"
#include "state_pipelines.h"

/* Checks a dispatch's or draw's bound state; runs again only when that state changed. */
void check_binding_command(struct layer_device *ld, struct command_buffer_state *cb, struct bound_state *b,
                           const char *call);
/* At pipeline creation: the pipeline layout's types against the shader's declarations. */
void check_binding_pipeline(struct layer_device *ld, const struct pipeline_state *p, VkShaderModule module,
                            const char *call);
/* At pipeline creation: a stage whose module the reflection could not make sense of (`r->invalid`):
 * the pipeline's shader checks are off, and the finding says why and where. */
void check_binding_unreflected(struct layer_device *ld, VkShaderModule module, const char *entry,
                               VkShaderStageFlagBits stage, const struct reflect_result *r, const char *call);
/* At vkCreateShaderModule with the spirv_validation setting: SPIRV-Tools' validator on the module. */
void check_binding_module(struct layer_device *ld, VkShaderModule module, const uint32_t *code, size_t size,
                          const char *call);
/* At vkUpdateDescriptorSets and friends: a buffer or image view written as `type`. */
void check_binding_resource(struct layer_device *ld, VkDescriptorSet set, VkDescriptorType type, uint64_t resource,
                            const char *call);

#endif
