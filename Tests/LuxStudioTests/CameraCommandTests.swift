import LuxStudio
import Testing

/// Reading the camera WebSocket's JSON commands.
@Suite struct CameraCommandTests {
    @Test(
        "whole numbers, 0 and 1 included, are numbers; booleans are not",
        arguments: [
            (#"{"type":"bias","value":1}"#, CameraCommand.bias(1)),
            (#"{"type":"bias","value":0}"#, .bias(0)),
            (#"{"type":"bias","value":-1.5}"#, .bias(-1.5)),
            (#"{"type":"focus","mode":"locked","lensPosition":1}"#, .focus(mode: "locked", lensPosition: 1)),
            (
                #"{"type":"capture","kind":"bracket","bracket":[-1,0,1]}"#,
                .capture(kind: "bracket", prioritization: nil, bracket: [-1, 0, 1])
            ),
            (#"{"type":"livePhotoMode","enabled":true}"#, .livePhotoMode(true)),
            (#"{"type":"scene","handheld":false}"#, .scene(name: nil, lux: nil, handheld: false)),
            (#"{"type":"device","path":"/dev/video2"}"#, .device(path: "/dev/video2")),
            (#"{"type":"device","path":"simulated"}"#, .device(path: nil)),
        ])
    func reads(json: String, command: CameraCommand) throws {
        #expect(try CameraCommand(json: json) == command)
    }

    @Test(
        "a boolean for a number, a number for a flag, and a boolean in a bracket are refused, naming the field",
        arguments: [
            (#"{"type":"bias","value":true}"#, "'value' must be a number"),
            (#"{"type":"livePhotoMode","enabled":1}"#, "'enabled' must be true or false"),
            (#"{"type":"scene","handheld":0}"#, "'handheld' must be true or false"),
            (#"{"type":"capture","kind":"bracket","bracket":[true]}"#, "'bracket' must be 1 to 8 numbers of EV"),
        ])
    func refuses(json: String, message: String) {
        #expect {
            try CameraCommand(json: json)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
