/* A one-instance ray-tracing scene for the smoke tests: a BLAS of one triangle in the plane
 * z = 5 (vertices (-1,-1), (1,-1), (0,1)) or of one AABB from (-1,-1,5) to (1,1,6), and a TLAS
 * with one identity-transform instance of it. Builds are recorded into gpu->cmd, followed by a
 * barrier that makes the TLAS readable by `reader_stage`. */
#ifndef PREFLIGHT_SMOKE_ACCELERATION_H
#define PREFLIGHT_SMOKE_ACCELERATION_H

#include "gpu.h"

enum scene_geometry { SCENE_TRIANGLE_OPAQUE, SCENE_TRIANGLE_NON_OPAQUE, SCENE_AABB };

#define SCENE_PLANE_Z 5.0f
#define SCENE_BOX_MAX_Z 6.0f

/* Returns the TLAS, or VK_NULL_HANDLE after a failure (recorded in gpu). */
VkAccelerationStructureKHR scene_build(struct gpu *gpu, enum scene_geometry geometry,
                                       VkPipelineStageFlags reader_stage);

#endif
