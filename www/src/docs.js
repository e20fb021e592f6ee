import "../../js/element/hotrow-playground.js";
