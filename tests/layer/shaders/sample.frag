#version 450
// Samples binding 0: the attachment scenario binds the image being rendered to.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex;
void main() { color = texture(tex, uv); }
