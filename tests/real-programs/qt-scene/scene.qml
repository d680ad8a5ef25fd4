// A Qt Quick scene for the layer's acceptance on Qt's Vulkan RHI (QSG_RHI_BACKEND=vulkan): items
// rendered into textures (a ShaderEffectSource, layered items) that later passes sample, an effect
// chain (MultiEffect: blur and shadow) and animation, for a fixed number of frames. The frame after
// the last one is grabbed and written to the path given after `--` (so the run's output can be
// compared with and without a layer), then the application quits.
import QtQuick
import QtQuick.Window
import QtQuick.Effects

Window {
    id: window
    width: 320
    height: 240
    visible: true
    color: "#202830"

    property int frames: 0
    readonly property int lastFrame: 40

    Rectangle {
        id: source
        x: 20; y: 20; width: 120; height: 90
        color: "#3070c0"
        radius: 12
        Rectangle { x: 20; y: 20; width: 40; height: 40; color: "#f0c040"; rotation: window.frames * 9 }
        Text { x: 10; y: 64; text: "layer"; color: "white"; font.pixelSize: 16 }
    }

    // the same item as a texture, sampled by a second pass
    ShaderEffectSource {
        id: copy
        sourceItem: source
        live: true
        width: 120; height: 90
        x: 180; y: 20
    }

    // an item drawn into its own layer, then blurred and shadowed
    Rectangle {
        id: layered
        x: 20; y: 130; width: 120; height: 90
        color: "#c04050"
        layer.enabled: true
        Rectangle { anchors.centerIn: parent; width: 50; height: 50; color: "#40c080"; rotation: -window.frames * 6 }
    }
    MultiEffect {
        source: layered
        x: 180; y: 130; width: 120; height: 90
        blurEnabled: true
        blur: 0.6
        shadowEnabled: true
        shadowColor: "black"
    }

    Connections {
        target: window
        function onFrameSwapped() {
            window.frames += 1
            if (window.frames === window.lastFrame) {
                const path = Qt.application.arguments[Qt.application.arguments.length - 1]
                window.contentItem.grabToImage(function (result) {
                    console.log("preflight-frame: " + (result.saveToFile(path) ? "saved" : "not saved"))
                    Qt.quit()
                })
            }
        }
    }
}
