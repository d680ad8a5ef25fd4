#version 450
// Writes the flat value it is given: the readback shows which pixels were covered and by what.
layout(location = 0) flat in uint value;
layout(location = 0) out uint color;
void main() { color = value; }
