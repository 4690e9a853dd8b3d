"""What the app teaches with: lessons, exercises, challenges, predictions and the √d_k lab."""
