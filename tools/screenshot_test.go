package tools

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"
)

func TestEncodeImageLimits(t *testing.T) {
	// A noisy image whose PNG is over the byte cap is sent as JPEG.
	const side = 1000
	img := image.NewRGBA(image.Rect(0, 0, side, side))
	x := uint32(1)
	for i := range img.Pix {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		img.Pix[i] = byte(x)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if b.Len() <= maxImageBytes {
		t.Fatalf("test image PNG is only %d bytes", b.Len())
	}
	out, note, err := encodeImage(b.Bytes(), "png", nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.MIMEType != "image/jpeg" || len(out.Data) > maxImageBytes || !strings.Contains(note, "Sent as JPEG") {
		t.Errorf("got %s, %d bytes, note %q", out.MIMEType, len(out.Data), note)
	}
	if _, _, err := encodeImage([]byte("not a png"), "jpeg", nil); err == nil {
		t.Error("a broken PNG was accepted")
	}
}
