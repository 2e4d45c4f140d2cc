(typeof _self === "function" ? _self(window, {}) : JSON.stringify({ok: false, error: {code: "resident_missing", message: "the resident script is gone"}}))
