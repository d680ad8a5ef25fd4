extends Node3D
# Proves that the scene rendered: at frame 30 the window's image is read back from the GPU and saved
# where the command line says (godot ... ++ --frame PATH), for the acceptance to look at.

const FRAME := 30
var frames := 0


func _process(_delta: float) -> void:
	frames += 1
	if frames != FRAME:
		return
	var args := OS.get_cmdline_user_args()
	var at := args.find("--frame")
	if at < 0 or at + 1 >= args.size():
		return
	var image := get_viewport().get_texture().get_image()
	var error := image.save_png(args[at + 1])
	print("preflight-frame: %d %dx%d %s" % [frames, image.get_width(), image.get_height(), error_string(error)])
