#version 450
// SHADER vertex NAME PASSTHROUGH: the vec4 at location 0 becomes the position.
layout(location = 0) in vec4 position;
void main()
{
    gl_Position = position;
}
