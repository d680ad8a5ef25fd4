#version 450
// from a file
void main() {}
