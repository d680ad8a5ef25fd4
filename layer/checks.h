/* The PREFLIGHT-* catalogue, defined once: every check is one line with its ID, severity, a
 * one-line summary and its anchor in docs/checks.md (test unit.checks_doc keeps the two equal).
 * Add a check here, document it there, and call finding_report with its enum value. */
#ifndef PREFLIGHT_LAYER_CHECKS_H
#define PREFLIGHT_LAYER_CHECKS_H

#include <stdbool.h>
#include <stdint.h>

/* ADVICE: reported with WARNING severity, but off unless enabled (`enable` setting): for patterns
 * that are correct by the spec yet worth a look in some code bases. */
enum check_severity { CHECK_ERROR, CHECK_WARNING, CHECK_ADVICE };

/* one row per check, as docs/checks.md lists them: kept as written, not reflowed */
// clang-format off
#define PREFLIGHT_CHECKS(X)                                                                                           \
    X(DISPATCH_GROUP_COUNT, "PREFLIGHT-dispatch-group-count", CHECK_ERROR,                                           \
      "a dispatch's group count (or base + count) exceeds maxComputeWorkGroupCount")                                  \
    X(DISPATCH_ZERO_SIZE, "PREFLIGHT-dispatch-zero-size", CHECK_WARNING,                                             \
      "a dispatch with a group count of zero does no work")                                                          \
    X(DISPATCH_INDIRECT_GROUP_COUNT, "PREFLIGHT-dispatch-indirect-group-count", CHECK_ERROR,                         \
      "an indirect dispatch's group count, read at submit, exceeds maxComputeWorkGroupCount")                        \
    X(DISPATCH_WORKGROUP_SIZE, "PREFLIGHT-dispatch-workgroup-size", CHECK_ERROR,                                     \
      "a compute shader's local size exceeds maxComputeWorkGroupSize in some dimension")                             \
    X(DISPATCH_WORKGROUP_INVOCATIONS, "PREFLIGHT-dispatch-workgroup-invocations", CHECK_ERROR,                       \
      "a compute shader's local size x*y*z exceeds maxComputeWorkGroupInvocations")                                  \
    X(DISPATCH_SHARED_MEMORY, "PREFLIGHT-dispatch-shared-memory", CHECK_ERROR,                                       \
      "a compute shader's workgroup (shared) memory exceeds maxComputeSharedMemorySize")                             \
    X(DISPATCH_UNCOVERED_ELEMENTS, "PREFLIGHT-dispatch-uncovered-elements", CHECK_WARNING,                            \
      "a dispatch launches fewer invocations in a dimension than the shader's push-constant bound in it")           \
    X(DISPATCH_TARGET_GROUP_COUNT, "PREFLIGHT-dispatch-target-group-count", CHECK_ERROR,                             \
      "a dispatch's group count exceeds maxComputeWorkGroupCount of a device in the target fleet")                   \
    X(DISPATCH_TARGET_WORKGROUP_SIZE, "PREFLIGHT-dispatch-target-workgroup-size", CHECK_ERROR,                       \
      "a compute shader's local size exceeds maxComputeWorkGroupSize of a device in the target fleet")               \
    X(DISPATCH_TARGET_WORKGROUP_INVOCATIONS, "PREFLIGHT-dispatch-target-workgroup-invocations", CHECK_ERROR,         \
      "a compute shader's local size exceeds maxComputeWorkGroupInvocations of a device in the target fleet")        \
    X(DISPATCH_TARGET_SHARED_MEMORY, "PREFLIGHT-dispatch-target-shared-memory", CHECK_ERROR,                         \
      "a compute shader's shared memory exceeds maxComputeSharedMemorySize of a device in the target fleet")          \
    X(ALIAS_BUFFER, "PREFLIGHT-alias-buffer", CHECK_ERROR,                                                           \
      "one binding of a dispatch or draw writes buffer memory that another binding of the same command accesses")    \
    X(ALIAS_IMAGE, "PREFLIGHT-alias-image", CHECK_ERROR,                                                             \
      "one binding of a dispatch or draw writes an image subresource that another binding of the same command accesses") \
    X(ALIAS_BUFFER_UNPROVEN, "PREFLIGHT-alias-buffer-unproven", CHECK_ADVICE,                                      \
      "the descriptor ranges of a written binding and another binding of one command overlap, but whether the shader's accesses meet is unknown") \
    X(ALIAS_IN_PLACE, "PREFLIGHT-alias-in-place", CHECK_ADVICE,                                                      \
      "two bindings of one dispatch or draw read and write exactly the same buffer range or subresources (in place)") \
    X(ALIAS_ATTACHMENT, "PREFLIGHT-alias-attachment", CHECK_ERROR,                                                   \
      "a draw renders to an image subresource that one of its descriptors also reads or writes")                     \
    X(ALIAS_VERTEX_INDEX_INDIRECT, "PREFLIGHT-alias-vertex-index-indirect", CHECK_ERROR,                             \
      "a dispatch or draw reads a vertex, index or indirect buffer that one of its bindings writes")                     \
    X(BINDING_MISSING_SET, "PREFLIGHT-binding-missing-set", CHECK_ERROR,                                             \
      "a dispatch or draw uses a set or binding that no compatible bound descriptor set provides")                   \
    X(BINDING_UNWRITTEN, "PREFLIGHT-binding-unwritten-descriptor", CHECK_ERROR,                                      \
      "a dispatch or draw uses a descriptor that was never written")                                                  \
    X(BINDING_TYPE_MISMATCH, "PREFLIGHT-binding-type-mismatch", CHECK_ERROR,                                         \
      "a descriptor's type does not match what the shader declares at that binding")                                  \
    X(BINDING_RESOURCE_USAGE, "PREFLIGHT-binding-resource-usage", CHECK_ERROR,                                       \
      "a buffer or image written into a descriptor lacks the usage flag that descriptor type needs")                 \
    X(BINDING_INVALID_SPIRV, "PREFLIGHT-binding-invalid-spirv", CHECK_WARNING,                                       \
      "a pipeline's shader module is not SPIR-V the layer can make sense of: its shader checks are off for that pipeline") \
    X(HAZARD_READ_AFTER_WRITE, "PREFLIGHT-hazard-read-after-write", CHECK_ERROR,                                     \
      "a command reads memory an earlier command wrote, without a barrier making the write visible to it")          \
    X(HAZARD_WRITE_AFTER_WRITE, "PREFLIGHT-hazard-write-after-write", CHECK_ERROR,                                   \
      "a command writes memory an earlier command wrote, without a memory dependency between the two writes")       \
    X(HAZARD_WRITE_AFTER_READ, "PREFLIGHT-hazard-write-after-read", CHECK_ERROR,                                     \
      "a command writes memory an earlier command read, without an execution dependency ordering the two")          \
    X(HOST_INVALIDATE_BEFORE_WAIT, "PREFLIGHT-host-invalidate-before-wait", CHECK_ERROR,                             \
      "the host invalidates mapped memory that a submission it has not waited for still writes")                     \
    X(HOST_MAP_BEFORE_WAIT, "PREFLIGHT-host-map-before-wait", CHECK_ERROR,                                           \
      "the host maps memory that a submission it has not waited for still writes")                                   \
    X(HOST_READ_WITHOUT_HOST_BARRIER, "PREFLIGHT-host-read-without-host-barrier", CHECK_ERROR,                       \
      "the host invalidates mapped memory a completed GPU write changed, which no barrier made visible to the host")  \
    X(HOST_READBACK_WITHOUT_HOST_BARRIER, "PREFLIGHT-host-readback-without-host-barrier", CHECK_ERROR,               \
      "a wait completed a GPU write to a mapped readback buffer, which no barrier made visible to the host")          \
    X(HOST_WRITE_WHILE_PENDING, "PREFLIGHT-host-write-while-pending", CHECK_ERROR,                                   \
      "the host flushes mapped memory that a submission it has not waited for still reads or writes")                \
    X(LIFETIME_DESTROYED_WHILE_PENDING, "PREFLIGHT-lifetime-destroyed-while-pending", CHECK_ERROR,                   \
      "an object is destroyed or freed while a submission not known complete still uses it")                        \
    X(LIFETIME_RESET_WHILE_PENDING, "PREFLIGHT-lifetime-reset-while-pending", CHECK_ERROR,                           \
      "a descriptor pool, command pool or command buffer is reset while a submission not known complete uses it")   \
    X(LIFETIME_UPDATED_WHILE_PENDING, "PREFLIGHT-lifetime-updated-while-pending", CHECK_ERROR,                       \
      "a descriptor set is updated while a submission not known complete uses it (no UPDATE_AFTER_BIND)")           \
    X(LIFETIME_STALE_DESCRIPTOR_SET, "PREFLIGHT-lifetime-stale-descriptor-set", CHECK_ERROR,                         \
      "a descriptor set is bound, or a command buffer binding it submitted, after it was freed or its pool reset")  \
    X(LIFETIME_DESTROYED_AFTER_RECORDING, "PREFLIGHT-lifetime-destroyed-after-recording", CHECK_ERROR,               \
      "a command buffer is submitted after an object it refers to was destroyed")
// clang-format on

enum check_id {
#define CHECK_ENUM(id, name, severity, summary) CHECK_##id,
    PREFLIGHT_CHECKS(CHECK_ENUM)
#undef CHECK_ENUM
        CHECK_COUNT
};

struct check_info {
    const char *name; /* "PREFLIGHT-dispatch-group-count": pMessageIdName */
    enum check_severity severity;
    const char *summary;
    int32_t message_id; /* messageIdNumber: a stable hash of the name */
};

const struct check_info *check_info(enum check_id id);
/* The check whose name matches, or CHECK_COUNT. */
enum check_id check_by_name(const char *name);

#endif
