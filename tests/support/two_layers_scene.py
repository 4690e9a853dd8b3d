"""A scene of two layers (two heads mixed by W_O, then one head reading the residual stream), as a
version 5 file holds it: shared by the model's tests and the window's."""

X = [[1.0, 0.0, 0.5], [0.0, 1.0, -0.5], [0.6, 0.8, 0.0], [-0.3, 0.4, 1.0]]
TWO_LAYERS = {
    "format": "attention-desktop-scene", "version": 5, "title": "Two layers",
    "tokens": ["a", "b", "a2", "c"], "embeddings": X,
    "layers": [
        {"heads": [
            {"name": "previous", "w_q": [[1, 0], [0, 1], [0, 0]], "w_k": [[0, 1], [1, 0], [0, 0]],
             "w_v": [[1, 0], [0, 1], [0, 0]]},
            {"name": "third", "w_q": [[0, 0], [0, 0], [1, 1]], "w_k": [[0, 0], [0, 0], [1, -1]],
             "w_v": [[0, 0], [0, 0], [1, 0]]},
         ],
         "w_o": [[0.5, 0, 0], [0, 0.5, 0], [0, 0, 1], [0, 0, 0]]},
        {"heads": [{"name": "reads the stream", "w_q": [[2, 0], [0, 2], [1, 0]], "w_k": [[1, 0], [0, 1], [0, 1]],
                    "w_v": [[1, 0], [0, 1], [1, 1]]}]},
    ],
    "scale": True, "causal": True, "selected": 3,
}

# The same with a W_O in layer 2 as well (the identity: the same output until a number of it is typed).
TWO_LAYERS_WITH_W_O = {**TWO_LAYERS, "title": "Two layers, two W_O",
                       "layers": [TWO_LAYERS["layers"][0], {**TWO_LAYERS["layers"][1], "w_o": [[1, 0], [0, 1]]}]}
