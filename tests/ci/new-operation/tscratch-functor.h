struct TScratchOp : InLanes<AddTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x, hn::Vec<D> y) const {
    return hn::Abs(hn::Sub(x, y));
  }
};

