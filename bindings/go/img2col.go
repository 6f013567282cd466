package pto

import (
	"runtime"

	"github.com/libpto/pto-go/internal/ptoc"
)

// Img2colConfig is pto_img2col_config: the feature map and its padding
// (SETFMATRIX), the pad element's bits in dst's dtype (SET_IMG2COL_PADDING),
// the repeat (SET_IMG2COL_RPT) and TIMG2COL's own fields (include/pto_c.h,
// "Matrix multiply").
type Img2colConfig struct {
	FmapH, FmapW                         uint16
	PadLeft, PadRight, PadTop, PadBottom uint8
	PadBits                              uint32
	RepeatStride                         uint16
	RepeatTime, RepeatMode               uint8
	StrideH, StrideW                     uint8
	DilationH, DilationW                 uint8
	FilterH, FilterW                     uint16
	ChannelSize                          uint16
}

// toC copies c into a C struct; the caller deletes it (the settings of
// ops_generated.go, TImg2col).
func (c *Img2colConfig) toC() ptoc.Pto_img2col_config {
	p := ptoc.NewPto_img2col_config()
	p.SetFmap_h(c.FmapH)
	p.SetFmap_w(c.FmapW)
	p.SetPad_left(c.PadLeft)
	p.SetPad_right(c.PadRight)
	p.SetPad_top(c.PadTop)
	p.SetPad_bottom(c.PadBottom)
	p.SetPad_bits(uint(c.PadBits))
	p.SetRepeat_stride(c.RepeatStride)
	p.SetRepeat_time(c.RepeatTime)
	p.SetRepeat_mode(c.RepeatMode)
	p.SetStride_h(c.StrideH)
	p.SetStride_w(c.StrideW)
	p.SetDilation_h(c.DilationH)
	p.SetDilation_w(c.DilationW)
	p.SetFilter_h(c.FilterH)
	p.SetFilter_w(c.FilterW)
	p.SetChannel_size(c.ChannelSize)
	return p
}

// TImg2col is TIMG2COL with its registers set first (pto-isa's auto mode):
// pto_setfmatrix, pto_set_img2col_padding and pto_set_img2col_rpt from cfg,
// then pto_timg2col(dst, src, cfg, posM, posK), all on one OS thread, since
// libpto keeps the registers per thread and a goroutine may move between
// threads. dst's valid region becomes the im2col window of src's NC1HWC0
// feature map, bit for bit. Written here, not generated: its configuration
// struct fits no row.
func TImg2col(dst, src *Tile, cfg Img2colConfig, posM, posK uint16) error {
	var hs [2]uintptr
	tiles := []*Tile{dst, src}
	if err := resolve("pto.TImg2col", []string{"dst", "src"}, tiles, hs[:]); err != nil {
		return err
	}
	c := cfg.toC()
	defer ptoc.DeletePto_img2col_config(c)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	err := check(ptoc.Pto_setfmatrix(c))
	if err == nil {
		err = check(ptoc.Pto_set_img2col_padding(c))
	}
	if err == nil {
		err = check(ptoc.Pto_set_img2col_rpt(c))
	}
	if err == nil {
		err = check(ptoc.Pto_timg2col(hs[0], hs[1], c, posM, posK))
	}
	keepAlive(tiles)
	return err
}
